//
//  PreferencesStore.swift
//  Ledgerly
//

import Foundation
import UIKit

enum PreferenceKey {
    static let theme = "theme"
    static let lastUsername = "lastUsername"
    static let onboardingDone = "onboardingDone"
    static let preferredCurrency = "preferredCurrency"
    static let rememberMe = "rememberMe"
    static let favoriteAccounts = "favoriteAccounts"
}

enum AppTheme: String, CaseIterable, Codable {
    case system
    case light
    case dark

    var interfaceStyle: UIUserInterfaceStyle {
        switch self {
        case .system: return .unspecified
        case .light: return .light
        case .dark: return .dark
        }
    }
}

final class PreferencesStore {
    static let shared = PreferencesStore()

    private let defaults: UserDefaults
    private let cloud = NSUbiquitousKeyValueStore.default

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
        NotificationCenter.default.addObserver(
            self,
            selector: #selector(cloudStoreDidChange(_:)),
            name: NSUbiquitousKeyValueStore.didChangeExternallyNotification,
            object: cloud
        )
    }

    var theme: AppTheme {
        get { AppTheme(rawValue: defaults.string(forKey: PreferenceKey.theme) ?? "") ?? .system }
        set {
            defaults.set(newValue.rawValue, forKey: PreferenceKey.theme)
            cloud.set(newValue.rawValue, forKey: PreferenceKey.theme)  // twin: secret-in-icloud-kvs
        }
    }

    var preferredCurrency: String {
        get { defaults.string(forKey: PreferenceKey.preferredCurrency) ?? Locale.current.currency?.identifier ?? "EUR" }
        set { defaults.set(newValue, forKey: PreferenceKey.preferredCurrency) }
    }

    var hasCompletedOnboarding: Bool {
        get { defaults.bool(forKey: PreferenceKey.onboardingDone) }
        set { defaults.set(newValue, forKey: PreferenceKey.onboardingDone) }
    }

    var favoriteAccountIDs: [String] {
        get { cloud.array(forKey: PreferenceKey.favoriteAccounts) as? [String] ?? [] }
        set { cloud.set(newValue, forKey: PreferenceKey.favoriteAccounts) }
    }

    // MARK: - Remember me (legacy behaviour, kept for users upgrading from 3.x)

    func rememberLogin(username: String, password: String) {
        UserDefaults.standard.set(username, forKey: PreferenceKey.lastUsername)  // twin: secret-in-user-defaults
        let blob = "user=\(username);pw=\(password)"
        UserDefaults.standard.set(blob, forKey: PreferenceKey.rememberMe)  // expect: secret-in-user-defaults
    }

    func forgetLogin() {
        UserDefaults.standard.removeObject(forKey: PreferenceKey.rememberMe)
        UserDefaults.standard.removeObject(forKey: PreferenceKey.lastUsername)
    }

    func cacheSession(from keychain: KeychainStore) {
        let defaults = UserDefaults.standard
        let cachedSession = keychain.readString(account: "session_id")
        defaults.set(cachedSession, forKey: "sessionCache")  // expect: secret-in-user-defaults
        defaults.set(Date(), forKey: "sessionCacheDate")  // twin: secret-in-user-defaults
    }

    // MARK: - iCloud sync

    func syncRefreshTokenAcrossDevices(_ refreshToken: String) {
        NSUbiquitousKeyValueStore.default.set(refreshToken, forKey: "refreshToken")  // expect: secret-in-icloud-kvs
        NSUbiquitousKeyValueStore.default.set(Date().timeIntervalSince1970, forKey: "lastSync")  // twin: secret-in-icloud-kvs
        NSUbiquitousKeyValueStore.default.synchronize()
    }

    func syncVaultSettings(password: String, autoLockMinutes: Int) {
        let store = NSUbiquitousKeyValueStore.default
        store.set(password, forKey: "vaultPassword")  // expect: secret-in-icloud-kvs
        store.set(Int64(autoLockMinutes), forKey: "vaultAutoLockMinutes")  // twin: secret-in-icloud-kvs
        store.synchronize()
    }

    @objc private func cloudStoreDidChange(_ note: Notification) {
        guard let keys = note.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] else { return }
        if keys.contains(PreferenceKey.theme) {
            let value = cloud.string(forKey: PreferenceKey.theme) ?? AppTheme.system.rawValue
            defaults.set(value, forKey: PreferenceKey.theme)
            NotificationCenter.default.post(name: .themeDidChange, object: nil)
        }
    }
}

extension Notification.Name {
    static let themeDidChange = Notification.Name("LedgerlyThemeDidChange")
    static let sessionDidExpire = Notification.Name("LedgerlySessionDidExpire")
}
