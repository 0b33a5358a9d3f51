import Foundation

/// Apple's data protection classes of a file (`FileProtectionType`), portable: Warden decides the class of the files
/// it creates once, and each platform applies it (Apple platforms) or has none (Linux).
///
/// ``SealedStore`` writes `.complete` unless told otherwise: such a file cannot be opened from about ten seconds after
/// the device locks until it is unlocked again. A background task that must read while locked needs
/// `.completeUntilFirstUserAuthentication`.
public enum DataProtectionClass: String, Sendable, CaseIterable {
    /// Unreadable while the device is locked (`.complete`).
    case complete
    /// Usable while open; created while locked, but not reopened until unlocked (`.completeUnlessOpen`).
    case completeUnlessOpen
    /// Usable after the first unlock since boot, locked or not (`.completeUntilFirstUserAuthentication`).
    case completeUntilFirstUserAuthentication
    /// Always usable (`.none`).
    case none
}

/// Sets the data protection class of a file or directory: the one call Warden makes for it, so the rule "which class
/// each file Warden creates gets" is tested on Linux against the data protection model (`WardenTesting`).
package protocol FileProtection: Sendable {
    /// Gives `path` the class `protection`; false when the system refused (the caller carries on: the class only
    /// matters while the device is locked).
    func protect(_ path: String, _ protection: DataProtectionClass) -> Bool
    /// The class `path` has, or nil where there is none (Linux) or it cannot be read.
    func protectionClass(of path: String) -> DataProtectionClass?
    /// Whether the system lets `path` be opened now (false: a protected file while the device is locked). The real
    /// system answers by failing the open itself; the model answers here.
    func permitsOpening(_ path: String) -> Bool
    /// `source` was renamed to `destination`. The real system keeps a file's class through a rename by itself; the
    /// model, which records classes by path, moves it.
    func moved(_ source: String, to destination: String)
}

extension FileProtection {
    package func permitsOpening(_ path: String) -> Bool { true }
    package func moved(_ source: String, to destination: String) {}
}
