#if canImport(Security) && canImport(LocalAuthentication)
    import Foundation
    import LocalAuthentication
    import Security

    /// A ``CredentialStore`` on the Apple Keychain (`kSecClassGenericPassword`, service + account).
    ///
    /// Defaults to `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`; `.afterFirstUnlockThisDeviceOnly` only for
    /// background refresh; refresh tokens can be bound to `.biometryCurrentSet`. Uses the data-protection keychain
    /// on macOS. All query building and status mapping is the portable ``KeychainLogic`` (tested on Linux against
    /// a fake); this file only translates to `kSec*` constants and calls `SecItem*`.
    public final class KeychainStore: CredentialStore {
        private let logic: KeychainLogic

        /// - Parameters:
        ///   - accessibility: the protection class (only the `ThisDeviceOnly` classes exist here).
        ///   - accessControl: `.biometryCurrentSet` for biometric-bound items.
        ///   - accessGroup: a shared keychain group for app extensions.
        ///   - context: an `LAContext` to reuse a recent biometric authentication.
        public init(
            accessibility: KeychainAccessibility = .whenUnlockedThisDeviceOnly,
            accessControl: KeychainAccessControl = .none,
            // warden:ignore faceid-usage-description-missing a library: the app supplies Info.plist
            accessGroup: String? = nil, context: LAContext? = nil
        ) {
            var configuration = KeychainQuery.Configuration()
            configuration.accessibility = accessibility
            configuration.accessControl = accessControl
            configuration.accessGroup = accessGroup
            configuration.hasAuthenticationContext = context != nil
            logic = KeychainLogic(
                api: SecurityFrameworkKeychain(context: context.map(SendableContext.init)), configuration: configuration
            )
        }

        public func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try logic.save(data, service: service, account: account)
        }
        public func load(service: String, account: String) async throws(StorageError) -> Data? {
            try logic.load(service: service, account: account)
        }
        public func delete(service: String, account: String) async throws(StorageError) {
            try logic.delete(service: service, account: account)
        }
        public func deleteAll(service: String) async throws(StorageError) {
            try logic.delete(service: service, account: nil)
        }
        public func accounts(service: String) async throws(StorageError) -> [String] {
            try logic.accounts(service: service)
        }
    }

    /// `LAContext` is documented as thread-safe for evaluation; it is only passed to Security here.
    struct SendableContext: @unchecked Sendable { let context: LAContext }

    /// The only place that calls `SecItem*`.
    struct SecurityFrameworkKeychain: KeychainAPI {
        let context: SendableContext?

        func dictionary(_ query: KeychainQuery) -> CFDictionary {
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
                    if let control = SecAccessControlCreateWithFlags(
                        nil, Self.constant(accessibility), .biometryCurrentSet, nil)
                    {
                        result[kSecAttrAccessControl] = control
                    }
                case (.returnData, _): result[kSecReturnData] = true
                case (.returnAttributes, _): result[kSecReturnAttributes] = true
                case (.matchLimitOne, _): result[kSecMatchLimit] = kSecMatchLimitOne
                case (.matchLimitAll, _): result[kSecMatchLimit] = kSecMatchLimitAll
                case (.dataProtectionKeychain, _):
                    #if os(macOS)
                        result[kSecUseDataProtectionKeychain] = true
                    #endif
                case (.authenticationContext, _):
                    if let context { result[kSecUseAuthenticationContext] = context.context }
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

        func add(_ query: KeychainQuery) -> Int32 { SecItemAdd(dictionary(query), nil) }
        func update(_ query: KeychainQuery, _ attributes: KeychainQuery) -> Int32 {
            SecItemUpdate(dictionary(query), dictionary(attributes))
        }
        func copyData(_ query: KeychainQuery) -> (Int32, Data?) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(dictionary(query), &result)
            return (status, result as? Data)
        }
        func copyAccounts(_ query: KeychainQuery) -> (Int32, [String]) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(dictionary(query), &result)
            let items = result as? [[String: Any]] ?? []
            return (status, items.compactMap { $0[kSecAttrAccount as String] as? String })
        }
        func delete(_ query: KeychainQuery) -> Int32 { SecItemDelete(dictionary(query)) }
    }

    /// Writes sensitive files with complete file protection (`.completeFileProtection`): unreadable while the
    /// device is locked.
    public enum ProtectedFile {
        public static func write(_ data: Data, to url: URL) throws {
            try data.write(to: url, options: [.atomic, .completeFileProtection])
        }
    }
#endif
