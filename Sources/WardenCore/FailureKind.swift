/// How the caller of a failed operation should react.
///
/// Every Warden error answers this, so that an app never has to guess whether a failure means "try again later"
/// or "the user is signed out". Transient is not terminal: offline, timeouts, 5xx, 429 and a locked keychain keep
/// the session; only a definitive rejection of the grant signs out.
public enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// Retry later; keep the session (offline, timeout, 5xx, 429, locked keychain).
    case transient
    /// The credential is definitively gone (`invalid_grant`, 401 from the token endpoint): sign out.
    case terminal
    /// The user cancelled; never retry automatically.
    case userCancelled
    /// The app or the caller is configured wrongly (a bad key, a missing entitlement, a bad redirect URI).
    case misconfiguration
    /// The input was refused: an invalid signature, a forged or malformed token or response.
    case rejected
}

/// The shape every Warden error has: a stable code, a human reason that never contains a secret, and a
/// classification.
///
/// Conformers are `struct`s whose `==` compares the code only, so tests compare against a constructed error.
public protocol WardenError: Error, CustomStringConvertible, Sendable {
    /// The stable, machine-readable code, for example `unknown_kid`.
    var codeName: String { get }
    /// A human explanation. Never contains a secret value.
    var reason: String { get }
    /// How the caller should react.
    var failureKind: FailureKind { get }
}

extension WardenError {
    public var description: String { "\(codeName): \(reason)" }
}
