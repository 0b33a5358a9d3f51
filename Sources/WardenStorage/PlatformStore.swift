import Foundation

/// The platform's secure credential store, chosen once: the Keychain on Apple platforms, the freedesktop Secret
/// Service (GNOME Keyring, KWallet) on Linux. Cross-platform code (a desktop app, a CLI, a demo) asks here instead
/// of testing build defines; an iOS app configures `KeychainStore` directly for its accessibility, access
/// group and biometric binding.
///
/// ```swift
/// let store = try PlatformStore.make()  // KeychainStore() on Apple platforms, SecretServiceStore() on Linux
/// ```
public enum PlatformStore {
    /// A secure store a platform can have.
    public enum Kind: String, Sendable, CaseIterable {
        /// The Apple Keychain (`KeychainStore`).
        case keychain
        /// The freedesktop Secret Service through libsecret (`SecretServiceStore`).
        case secretService = "secret-service"
    }

    /// The secure store this platform has: `.keychain` on Apple platforms, `.secretService` on Linux, nil where
    /// there is none (then only ``InMemoryStore`` or an app's own store remains; never a plaintext file by default).
    public static var secure: Kind? {
        #if WARDEN_APPLE
            .keychain
        #elseif WARDEN_SECRET_SERVICE
            .secretService
        #else
            nil
        #endif
    }

    /// Whether this platform has the store `kind`.
    public static func isAvailable(_ kind: Kind) -> Bool { kind == secure }

    /// The store `kind` (by default this platform's secure one) with its defaults: on Apple platforms
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` in the data-protection keychain.
    ///
    /// - Parameters:
    ///   - grantLock: shared by every process that refreshes these grants (a ``FileGrantLock``); default: this
    ///     process only.
    ///   - commandLineTool: a macOS command-line tool without the keychain-access-groups entitlement uses the login
    ///     keychain instead (`warden login`); ignored elsewhere.
    /// - Throws: ``StorageErrorDomain/Code/serviceUnavailable`` when this platform has no such store (the Keychain on
    ///   Linux, the Secret Service on an Apple platform, or no secure store at all). Whether a Secret Service
    ///   answers is only known at the first call (`SecretServiceStore.probe()` asks without touching an item).
    public static func make(
        _ kind: Kind? = nil, grantLock: any GrantLock = ProcessGrantLock.shared, commandLineTool: Bool = false
    ) throws(StorageError) -> any CredentialStore {
        guard let wanted = kind ?? secure else {
            throw StorageError(.serviceUnavailable, "this platform has no secure credential store")
        }
        guard isAvailable(wanted) else {
            throw StorageError(
                .serviceUnavailable,
                wanted == .keychain
                    ? "the Keychain exists on Apple platforms only" : "the Secret Service exists on Linux only")
        }
        #if WARDEN_APPKIT
            return commandLineTool
                ? KeychainStore.loginKeychain(grantLock: grantLock) : KeychainStore(grantLock: grantLock)
        #elseif WARDEN_APPLE
            return KeychainStore(grantLock: grantLock)
        #elseif WARDEN_SECRET_SERVICE
            return SecretServiceStore(grantLock: grantLock)
        #else
            throw StorageError(.serviceUnavailable, "this platform has no secure credential store")
        #endif
    }
}
