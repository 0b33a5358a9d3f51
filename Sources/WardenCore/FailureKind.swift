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
/// Conformers are `struct`s; those with a typed code conform through ``CodedError``.
public protocol WardenError: Error, CustomStringConvertible, Sendable {
    /// The stable, machine-readable code, for example `unknown_kid`.
    var codeName: String { get }
    /// A human explanation. Never contains a secret value.
    var reason: String { get }
    /// How the caller should react.
    var failureKind: FailureKind { get }
    /// Where Warden raised the error (`WardenJOSE/JWSVerifier.swift:42`), for bug reports; nil for errors that are
    /// values of a closed set with no single origin (``FailureKind``-like enums such as `BiometricFailure`).
    var location: String? { get }
}

extension WardenError {
    public var location: String? { nil }

    /// `code: reason`, then where Warden raised it: `unknown_kid: no key for kid 'k1' (WardenJOSE/JWKSet.swift:88)`.
    /// Neither part ever holds a secret; show ``reason`` alone to users.
    public var description: String { summary + (location.map { " (\($0))" } ?? "") }

    /// `code: reason` without the location: what a report, a state or another error's reason quotes.
    public var summary: String { "\(codeName): \(reason)" }
}

/// A ``WardenError`` with a typed, stable code: its ``WardenError/codeName`` is the code's text and `==` compares
/// the code only, so tests write `#expect(throws: CryptoError(.weakKey))` whatever the reason and source location.
public protocol CodedError: WardenError, Equatable {
    /// The code type: a struct of static values whose `description` is the stable name (`invalid_key`).
    associatedtype Code: Hashable, Sendable, CustomStringConvertible
    /// The stable code.
    var code: Code { get }
    /// The file Warden raised the error in (`#fileID`).
    var file: String { get }
    /// Its line.
    var line: Int { get }
}

extension CodedError {
    public var codeName: String { code.description }

    public var location: String? { "\(file):\(line)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// `reason`, or the code in words when it is empty (`invalid_key` gives "invalid key").
    public static func reason(_ reason: String, or code: Code) -> String {
        reason.isEmpty ? code.description.replacingOccurrences(of: "_", with: " ") : reason
    }
}
