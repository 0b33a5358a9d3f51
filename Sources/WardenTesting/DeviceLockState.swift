/// Where the device is in its lock cycle, for the models of the Keychain (``KeychainModel``) and of file data
/// protection (``DataProtectionModel``).
public enum DeviceLockState: Sendable, Equatable {
    /// Booted, never unlocked since: no class key is available but `.none`'s.
    case beforeFirstUnlock
    /// Unlocked at least once since boot, locked now: the `…AfterFirstUnlock…` / `…UntilFirstUserAuthentication`
    /// class keys are available, the `complete` ones are not.
    case locked
    /// Unlocked now: every class key is available.
    case unlocked
}
