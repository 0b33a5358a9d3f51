//
//  KeychainStore.swift
//  Ledgerly
//

import Foundation
import LocalAuthentication
import Security

enum KeychainError: Error {
    case unexpectedStatus(OSStatus)
    case itemNotFound
    case encodingFailed
    case accessControlUnavailable
}

final class KeychainStore {
    static let shared = KeychainStore(service: "com.ledgerly.auth")

    let service: String
    private let accessGroup: String?

    init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func baseQuery(account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        return query
    }

    // MARK: - Access tokens

    /// Saves the short-lived access token. Kept for the background refresh task.
    func saveAccessToken(_ token: String) throws {
        SecItemDelete(baseQuery(account: "access_token") as CFDictionary)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "access_token",
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,  // expect: keychain-not-this-device-only
            kSecValueData as String: Data(token.utf8),
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    /// Saves the refresh token; only the device that signed in may use it.
    func saveRefreshToken(_ token: String) throws {
        SecItemDelete(baseQuery(account: "refresh_token") as CFDictionary)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "refresh_token",
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,  // twin: keychain-not-this-device-only
            kSecValueData as String: Data(token.utf8),
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    // MARK: - Session

    func saveSessionID(_ sessionID: String) throws {
        var query = baseQuery(account: "session_id")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = Data(sessionID.utf8)
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways  // expect: keychain-accessible-always
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    func saveDeviceBinding(_ binding: Data) throws {
        var query = baseQuery(account: "device_binding")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = binding
        query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly  // twin: keychain-accessible-always
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    // MARK: - Saved login (from the 3.x "remember me" feature)

    func saveLoginPassword(_ password: String, for username: String) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrServer as String: "api.ledgerly.example.com",
            kSecAttrAccount as String: username,
            kSecValueData as String: Data(password.utf8),
        ]
        SecItemDelete(query as CFDictionary)
        SecItemAdd(query as CFDictionary, nil)  // expect: keychain-accessibility-missing
    }

    func saveSharedWebCredential(_ password: String, for username: String) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrServer as String: "api.ledgerly.example.com",
            kSecAttrAccount as String: username,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            kSecValueData as String: Data(password.utf8),
        ]
        SecItemDelete(query as CFDictionary)
        SecItemAdd(query as CFDictionary, nil)  // twin: keychain-accessibility-missing
    }

    func savePushSigningKey(_ keyData: Data) throws {
        var attributes = baseQuery(account: "push_signing_key")
        attributes[kSecValueData as String] = keyData
        attributes[kSecAttrLabel as String] = "Ledgerly push signing key"
        let status = SecItemAdd(attributes as CFDictionary, nil)  // expect: keychain-accessibility-missing
        if status == errSecDuplicateItem {
            SecItemUpdate(baseQuery(account: "push_signing_key") as CFDictionary,
                          [kSecValueData as String: keyData] as CFDictionary)
        }
    }

    func saveWidgetSigningKey(_ keyData: Data) throws {
        var attributes = baseQuery(account: "widget_signing_key")
        attributes[kSecValueData as String] = keyData
        attributes[kSecAttrLabel as String] = "Ledgerly widget signing key"
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        let status = SecItemAdd(attributes as CFDictionary, nil)  // twin: keychain-accessibility-missing
        if status == errSecDuplicateItem {
            SecItemUpdate(baseQuery(account: "widget_signing_key") as CFDictionary,
                          [kSecValueData as String: keyData] as CFDictionary)
        }
    }

    // MARK: - Biometric-protected vault key

    func saveVaultKey(_ key: Data) throws {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryAny, &error) else {  // expect: keychain-weak-access-control
            throw KeychainError.accessControlUnavailable
        }
        var query = baseQuery(account: "vault_key")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = key
        query[kSecAttrAccessControl as String] = access
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    func saveVaultKeyV2(_ key: Data) throws {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &error) else {  // twin: keychain-weak-access-control
            throw KeychainError.accessControlUnavailable
        }
        var query = baseQuery(account: "vault_key_v2")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = key
        query[kSecAttrAccessControl as String] = access
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    func savePaymentPIN(_ pin: String) throws {
        let access = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            .userPresence,  // expect: keychain-weak-access-control
            nil
        )
        var query = baseQuery(account: "payment_pin")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = Data(pin.utf8)
        query[kSecAttrAccessControl as String] = access as Any
        SecItemAdd(query as CFDictionary, nil)
    }

    func savePaymentPINv2(_ pin: String) throws {
        let access = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            [.biometryCurrentSet, .or, .devicePasscode],  // twin: keychain-weak-access-control
            nil
        )
        var query = baseQuery(account: "payment_pin_v2")
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = Data(pin.utf8)
        query[kSecAttrAccessControl as String] = access as Any
        SecItemAdd(query as CFDictionary, nil)
    }

    /// Reads the vault key. The Keychain shows the Face ID prompt itself, bound to `context`.
    func readVaultKey(context: LAContext, reason: String) throws -> Data {  // twin: faceid-usage-description-missing
        context.localizedReason = reason
        var query = baseQuery(account: "vault_key_v2")
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseAuthenticationContext as String] = context  // twin: biometric-event-gate
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let data = result as? Data else {
            throw status == errSecItemNotFound ? KeychainError.itemNotFound : KeychainError.unexpectedStatus(status)
        }
        return data
    }

    // MARK: - Reading

    func readString(account: String) -> String? {
        var query = baseQuery(account: account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
              let data = result as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    func delete(account: String) {
        SecItemDelete(baseQuery(account: account) as CFDictionary)
    }

    func migrateLegacyItems() {
        let legacy: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.ledgerly.legacy",
        ]
        let update: [String: Any] = [
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,  // expect: keychain-not-this-device-only
        ]
        SecItemUpdate(legacy as CFDictionary, update as CFDictionary)
    }

    func migrateLegacyItemsV2() {
        let legacy: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.ledgerly.legacy",
        ]
        let update: [String: Any] = [
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,  // twin: keychain-not-this-device-only
        ]
        SecItemUpdate(legacy as CFDictionary, update as CFDictionary)
    }
}

// MARK: - Small typed wrapper used by feature teams

enum KeychainAccessibility {
    case accessibleWhenUnlockedThisDeviceOnly
    case accessibleAfterFirstUnlockThisDeviceOnly
    case accessibleAlways

    var attribute: CFString {
        switch self {
        case .accessibleWhenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .accessibleAfterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .accessibleAlways: return kSecAttrAccessibleAlways  // expect: keychain-accessible-always
        }
    }
}

struct KeychainItem {
    let account: String
    let accessibility: KeychainAccessibility

    func save(_ value: String) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.ledgerly.items",
            kSecAttrAccount as String: account,
            kSecValueData as String: Data(value.utf8),
        ]
        query[kSecAttrAccessible as String] = accessibility.attribute
        SecItemDelete(query as CFDictionary)
        SecItemAdd(query as CFDictionary, nil)
    }
}

enum WidgetSecrets {
    static let widgetToken = KeychainItem(account: "widget_token", accessibility: .accessibleAlways)  // expect: keychain-accessible-always
    static let watchToken = KeychainItem(account: "watch_token", accessibility: .accessibleWhenUnlockedThisDeviceOnly)  // twin: keychain-accessible-always
}
