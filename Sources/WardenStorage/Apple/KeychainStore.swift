#if WARDEN_APPLE
    import Foundation
    import LocalAuthentication
    import Security

    /// A ``CredentialStore`` on the Apple Keychain (`kSecClassGenericPassword`, service + account).
    ///
    /// Defaults to `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`; `.afterFirstUnlockThisDeviceOnly` only for
    /// background refresh; biometric-bound items use `.biometryCurrentSet` (bind only the refresh token, with
    /// WardenSession's `SplitTokenStore`). Uses the data-protection keychain on macOS (without the keychain-access-groups
    /// entitlement that is `-34018`, ``StorageErrorDomain/Code/missingEntitlement``).
    ///
    /// - **Fails closed**: when `SecAccessControlCreateWithFlags` cannot build the requested protection the item is
    ///   not saved (``StorageErrorDomain/Code/accessControlUnavailable``), never saved without it.
    /// - **Off the cooperative pool**: every `SecItem*` call runs on a serial queue. Stores with access control have
    ///   their own, so a read waiting for the user's Face ID never holds up the other Keychain calls of the process.
    /// - **A fresh `LAContext` per protected read** by default, so one biometric evaluation never unlocks the item
    ///   for the rest of the process. ``KeychainAuthenticationReuse`` can relax that: `afterDeviceUnlock` (the
    ///   context's `touchIDAuthenticationAllowableReuseDuration`: no prompt shortly after a biometric *device* unlock)
    ///   and `inApp` (one context kept, and invalidated, after that many seconds: no second prompt in the app).
    ///
    /// All query building, status mapping and queueing is the portable `KeychainItemStore` (tested on Linux over a
    /// model of the Keychain's primary-key and matching rules); this file only translates to `kSec*` constants and
    /// calls `SecItem*`.
    ///
    /// ```swift
    /// let store = KeychainStore()  // WhenUnlockedThisDeviceOnly
    /// try await store.save(Data("value".utf8), service: "com.example.app.tokens", account: "alice")
    /// ```
    ///
    /// Thread-safety: immutable; calls are serialised on the store's queue.
    public final class KeychainStore: CredentialStore {
        private let store: KeychainItemStore
        /// The lock holders of this store's grants share: for an app and its extensions a ``FileGrantLock`` in the
        /// app group container, otherwise the in-process lock.
        public var grantLock: any GrantLock { store.grantLock }

        /// - Parameters:
        ///   - accessibility: the protection class (only the `ThisDeviceOnly` classes exist here).
        ///   - accessControl: `.biometryCurrentSet` for biometric-bound items.
        ///   - accessGroup: a shared keychain group for app extensions.
        ///   - reuse: how long one biometric authentication unlocks protected reads (``KeychainAuthenticationReuse``;
        ///     default: every read prompts).
        ///   - prompt: the reason the system shows when a protected read asks for biometry (a blank one is not used: the
        ///     system's own text is shown).
        ///   - grantLock: shared by every process holding these grants (``FileGrantLock`` in the app group
        ///     container when extensions refresh too); default: this process only.
        public convenience init(
            accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
            accessControl: KeychainAccessControl = .none,
            accessGroup: String? = nil, reuse: KeychainAuthenticationReuse = .none, prompt: String? = nil,
            grantLock: any GrantLock = ProcessGrantLock.shared
        ) {
            var configuration = KeychainQuery.Configuration()
            configuration.accessibility = accessibility
            configuration.accessControl = accessControl
            configuration.accessGroup = accessGroup
            self.init(configuration: configuration, reuse: reuse, prompt: prompt, grantLock: grantLock)
        }

        /// For macOS command-line tools (`warden login`): the user's login keychain (the file-based keychain). An
        /// unsigned tool cannot use the data-protection keychain (no keychain-access-groups entitlement: `-34018`);
        /// the login keychain is locked with the user's session and its items are this user's.
        package static func loginKeychain(grantLock: any GrantLock) -> KeychainStore {
            var configuration = KeychainQuery.Configuration()
            configuration.useDataProtectionKeychain = false
            configuration.accessibility = .whenUnlockedThisDeviceOnly  // honoured by the data-protection keychain only
            return KeychainStore(configuration: configuration, reuse: .none, prompt: nil, grantLock: grantLock)
        }

        private init(
            configuration: KeychainQuery.Configuration, reuse: KeychainAuthenticationReuse, prompt: String?,
            grantLock: any GrantLock
        ) {
            store = KeychainItemStore(
                api: SecurityFrameworkKeychain(
                    contexts: AuthenticationContextCache(
                        window: reuse.inApp,
                        make: {
                            // warden:ignore faceid-usage-description-missing a library: the app's Info.plist has the text
                            let context = LAContext()
                            context.touchIDAuthenticationAllowableReuseDuration = min(
                                reuse.afterDeviceUnlock, LATouchIDAuthenticationMaximumAllowableReuseDuration)
                            if let prompt = KeychainPromptText.presentable(prompt) { context.localizedReason = prompt }
                            return context
                        }, invalidate: { $0.invalidate() })),
                configuration: configuration, grantLock: grantLock)
        }

        /// Stores `data` as the generic-password item `service` + `account`, replacing any existing item.
        public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try await store.save(data, service: service, account: account)
        }
        /// The item `service` + `account`, or nil when there is none.
        public func load(service: String, account: String) async throws(StorageError) -> Data? {
            try await store.load(service: service, account: account)
        }
        /// Deletes the item `service` + `account` (no error when it does not exist).
        public func delete(service: String, account: String) async throws(StorageError) {
            try await store.delete(service: service, account: account)
        }
        /// Deletes every item of `service`.
        public func deleteAll(service: String) async throws(StorageError) {
            try await store.deleteAll(service: service)
        }
        /// The accounts that have an item under `service`.
        public func accounts(service: String) async throws(StorageError) -> [String] {
            try await store.accounts(service: service)
        }
    }

    /// The only place that calls `SecItem*`.
    struct SecurityFrameworkKeychain: KeychainAPI {
        /// The context of each protected read: a new one, or the one kept for the in-app reuse window.
        let contexts: AuthenticationContextCache<LAContext>

        /// The query as `kSec*` attributes, or nil when its access control cannot be created (fail closed).
        func dictionary(_ query: KeychainQuery) -> CFDictionary? {
            var result: [CFString: Any] = [:]
            for (key, value) in query.attributes {
                switch (key, value) {
                case (.itemClass, _): result[kSecClass] = kSecClassGenericPassword
                case (.service, .string(let text)): result[kSecAttrService] = text
                case (.account, .string(let text)): result[kSecAttrAccount] = text
                case (.accessGroup, .string(let text)): result[kSecAttrAccessGroup] = text
                case (.valueData, .data(let data)): result[kSecValueData] = data
                case (.accessible, .accessibility(let accessibility)):
                    result[kSecAttrAccessible] = Self.constant(accessibility)
                case (.accessControl, .accessControl(let accessibility, _)):
                    guard
                        let control = SecAccessControlCreateWithFlags(
                            nil, Self.constant(accessibility), .biometryCurrentSet, nil)
                    else { return nil }
                    result[kSecAttrAccessControl] = control
                case (.returnData, _): result[kSecReturnData] = true
                case (.returnAttributes, _): result[kSecReturnAttributes] = true
                case (.matchLimitOne, _): result[kSecMatchLimit] = kSecMatchLimitOne
                case (.matchLimitAll, _): result[kSecMatchLimit] = kSecMatchLimitAll
                case (.dataProtectionKeychain, _):
                    // macOS: the iOS-style keychain instead of the legacy file keychain (ignored elsewhere).
                    result[kSecUseDataProtectionKeychain] = true
                case (.authenticationContext, _):
                    result[kSecUseAuthenticationContext] = contexts.context()
                default: break
                }
            }
            return result as CFDictionary
        }

        static func constant(_ accessibility: KeychainAccessibility) -> CFString {
            switch accessibility {
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            }
        }

        func add(_ query: KeychainQuery) -> Int32 {
            guard let attributes = dictionary(query) else { return KeychainStatus.accessControlUnavailable }
            return SecItemAdd(attributes, nil)
        }
        func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32 {
            guard let match = dictionary(query), let changes = dictionary(attributes) else {
                return KeychainStatus.accessControlUnavailable
            }
            return SecItemUpdate(match, changes)
        }
        func copyData(_ query: KeychainQuery) -> (Int32, Data?) {
            guard let match = dictionary(query) else { return (KeychainStatus.accessControlUnavailable, nil) }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(match, &result)
            return (status, result as? Data)
        }
        func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) {
            guard let match = dictionary(query) else { return (KeychainStatus.accessControlUnavailable, []) }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(match, &result)
            let items = result as? [[String: Any]] ?? []
            return (status, items.compactMap { $0[kSecAttrAccount as String] as? String })
        }
        func delete(_ query: KeychainQuery) -> Int32 {
            guard let match = dictionary(query) else { return KeychainStatus.accessControlUnavailable }
            return SecItemDelete(match)
        }
        func protectedReadEnded(_ status: Int32) {
            if status == KeychainStatus.success { contexts.readSucceeded() } else { contexts.reset() }
        }
        func itemsDeleted() { contexts.reset() }
    }

    extension KeychainAccessibility {
        /// The `kSecAttrAccessible…ThisDeviceOnly` constant of this class.
        package var securityConstant: CFString { SecurityFrameworkKeychain.constant(self) }
    }

    /// Writes sensitive files with complete file protection (`.completeFileProtection`): unreadable while the
    /// device is locked.
    public enum ProtectedFile {
        /// Writes `data` atomically with complete file protection.
        ///
        /// - Throws: ``StorageErrorDomain/Code/backendFailure`` when the file cannot be written (the reason names
        ///   the file and the system's error code, never the data).
        public static func write(_ data: Data, to url: URL) throws(StorageError) {
            do {
                try data.write(to: url, options: [.atomic, .completeFileProtection])
            } catch {
                let code = (error as NSError).code
                throw StorageError(.backendFailure, "cannot write \(url.lastPathComponent) (error \(code))")
            }
        }
    }
#endif
