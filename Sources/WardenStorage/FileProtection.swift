import Foundation

/// Apple's data protection classes of a file (`FileProtectionType`), portable: Warden decides the class of the files
/// it creates once, and each platform applies it (Apple platforms) or has none (Linux).
package enum DataProtectionClass: String, Sendable, CaseIterable {
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
}
