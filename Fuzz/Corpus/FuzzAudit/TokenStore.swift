import Foundation
import Security

/// Labelled fixture for storage rules.
struct TokenStore {
    let defaults = UserDefaults.standard

    func save(accessToken: String, refreshToken: String) {
        defaults.set(accessToken, forKey: "accessToken")  // expect: secret-in-user-defaults
        defaults.set(Date(), forKey: "lastLogin")
        print("saved refresh token \(refreshToken)")  // expect: secret-in-log
        print("saved \(refreshToken.count) characters")
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccessible as String: kSecAttrAccessibleAlways,  // expect: keychain-accessible-always
            kSecValueData as String: Data(refreshToken.utf8),
        ]
        SecItemAdd(query as CFDictionary, nil)
    }

    func saveForBackgroundRefresh(_ token: String) {
        // warden:ignore keychain-not-this-device-only migrating users keep one release on the old class
        let query = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]
        let fresh = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        _ = (query, fresh, token)
    }

    static let apiKey = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"  // expect: hardcoded-secret
    static let tokenKey = "com.example.token"
}
