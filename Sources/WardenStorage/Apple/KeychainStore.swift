#if WARDEN_APPLE
    import Foundation
    import LocalAuthentication
    import Security

    /// A ``CredentialStore`` on the Apple Keychain (`kSecClassGenericPassword`, service + account).
    ///
    /// Defaults to `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`; `.afterFirstUnlockThisDeviceOnly` only for
    /// background refresh; biometric-bound items use `.biometryCurrentSet` (bind only the refresh token, with
    /// ``SplitTokenStore``). Uses the data-protection keychain on macOS (without the keychain-access-groups
    /// entitlement that is `-34018`, ``StorageError/Code/missingEntitlement``).
    ///
    /// - **Fails closed**: when `SecAccessControlCreateWithFlags` cannot build the requested protection the item is
    ///   not saved (``StorageError/Code/accessControlUnavailable``), never saved without it.
    /// - **Off the cooperative pool**: every `SecItem*` call runs on one serial queue shared by all Keychain stores
    ///   (``BlockingCallQueue/keychain``).
    /// - **A fresh `LAContext` per protected read**, with `authenticationReuse` as its
    ///   `touchIDAuthenticationAllowableReuseDuration` (0 by default: every read prompts), so one biometric
    ///   evaluation never unlocks the item for the rest of the process.
    ///
    /// All query building and status mapping is the portable ``KeychainLogic`` (tested on Linux against a fake);
    /// this file only translates to `kSec*` constants and calls `SecItem*`.
    ///
    /// ```swift
    /// let store = KeychainStore()  // WhenUnlockedThisDeviceOnly
    /// try await store.save(try tokens.encoded(), service: "com.example.app.tokens", account: "alice")
    /// ```
    ///
    /// Thread-safety: immutable; calls are serialised on the shared queue.
    public final class KeychainStore: CredentialStore {
        private let logic: KeychainLogic
        private let calls = BlockingCallQueue.keychain
        /// The lock holders of this store's grants share: for an app and its extensions a ``FileGrantLock`` in the
        /// app group container, otherwise the in-process lock.
        public let grantLock: any GrantLock

        /// - Parameters:
        ///   - accessibility: the protection class (only the `ThisDeviceOnly` classes exist here).
        ///   - accessControl: `.biometryCurrentSet` for biometric-bound items.
        ///   - accessGroup: a shared keychain group for app extensions.
        ///   - authenticationReuse: seconds a biometric evaluation may be reused for a protected read (0...300).
        ///   - prompt: the reason the system shows when a protected read asks for biometry.
        ///   - grantLock: shared by every process holding these grants (``FileGrantLock`` in the app group
        ///     container when extensions refresh too); default: this process only.
        public init(
            accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
            accessControl: KeychainAccessControl = .none,
            accessGroup: String? = nil, authenticationReuse: TimeInterval = 0, prompt: String? = nil,
            grantLock: any GrantLock = ProcessGrantLock.shared
        ) {
            self.grantLock = grantLock
            var configuration = KeychainQuery.Configuration()
            configuration.accessibility = accessibility
            configuration.accessControl = accessControl
            configuration.accessGroup = accessGroup
            logic = KeychainLogic(
                api: SecurityFrameworkKeychain(
                    reuse: min(max(authenticationReuse, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration),
                    prompt: prompt),
                configuration: configuration)
        }

        public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            let logic = logic
            try await calls.run { () throws(StorageError) in try logic.save(data, service: service, account: account) }
        }
        public func load(service: String, account: String) async throws(StorageError) -> Data? {
            let logic = logic
            return try await calls.run { () throws(StorageError) in try logic.load(service: service, account: account) }
        }
        public func delete(service: String, account: String) async throws(StorageError) {
            let logic = logic
            try await calls.run { () throws(StorageError) in try logic.delete(service: service, account: account) }
        }
        public func deleteAll(service: String) async throws(StorageError) {
            let logic = logic
            try await calls.run { () throws(StorageError) in try logic.delete(service: service, account: nil) }
        }
        public func accounts(service: String) async throws(StorageError) -> [String] {
            let logic = logic
            return try await calls.run { () throws(StorageError) in try logic.accounts(service: service) }
        }
    }

    /// The only place that calls `SecItem*`.
    struct SecurityFrameworkKeychain: KeychainAPI {
        let reuse: TimeInterval
        let prompt: String?

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
                    // warden:ignore faceid-usage-description-missing a library: the app's Info.plist has the text
                    let context = LAContext()  // new for this one read
                    context.touchIDAuthenticationAllowableReuseDuration = reuse
                    if let prompt { context.localizedReason = prompt }
                    result[kSecUseAuthenticationContext] = context
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
    }

    /// Writes sensitive files with complete file protection (`.completeFileProtection`): unreadable while the
    /// device is locked.
    public enum ProtectedFile {
        public static func write(_ data: Data, to url: URL) throws {
            try data.write(to: url, options: [.atomic, .completeFileProtection])
        }
    }
#endif
