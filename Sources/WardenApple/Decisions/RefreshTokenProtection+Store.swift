import Foundation
import WardenCore
import WardenStorage

extension RefreshTokenProtection {
    /// The store of the refresh token for this decision: `bound` (the `.biometryCurrentSet` store) when the token is
    /// biometry-bound, else `plain` — and, when `biometryUnusable` (LocalAuthentication said so definitely: -6
    /// `biometryNotAvailable` for this app, -7 `biometryNotEnrolled`; never in an app extension, whose Info.plist
    /// decides nothing about the app's Face ID), reading as gone an item an earlier launch bound to biometry.
    ///
    /// Why: with Face ID turned off for the app in Settings (or nothing enrolled any more), a `.biometryCurrentSet` item
    /// can never be read — no sheet, no passcode fallback (the Keychain model's rule K10) — and its read fails
    /// (`authentication_failed`). Passed on, every refresh of the session failed for ever while the app could do
    /// nothing. Read as gone, the session ends once with "sign in again" (``SessionError``, `signed_out`), its items are
    /// deleted (deleting needs no authentication, K8), and the next sign-in writes the token under the new decision.
    /// A user who turns Face ID back on first keeps the session: the decision is `.biometryBound` again. Any other
    /// reason for a device-only decision (a missing usage description, an invalidated context, an unknown error) does
    /// not say biometry is gone, so a failed read there stays what it is (`authentication_failed`, the session kept).
    ///
    /// ```swift
    /// let refreshTokens = protection.refreshTokenStore(bound: biometricStore, plain: deviceStore, biometryUnusable: true)
    /// ```
    public func refreshTokenStore(bound: any CredentialStore, plain: any CredentialStore, biometryUnusable: Bool)
        -> any CredentialStore
    {
        if self == .biometryBound { return bound }
        return biometryUnusable ? UnusableBiometryStore(inner: plain) : plain
    }

    /// Whether LocalAuthentication's answer (`canEvaluatePolicy`'s error code) says biometry is unusable for this app
    /// for good: -6 (`biometryNotAvailable`: no biometry, or Face ID turned off for the app) and -7
    /// (`biometryNotEnrolled`), outside an app extension.
    public static func biometryUnusable(laErrorCode: Int?, inAppExtension: Bool) -> Bool {
        guard !inAppExtension, let laErrorCode else { return false }
        return laErrorCode == -6 || laErrorCode == -7
    }
}

/// A refresh-token store for a device whose biometry the app cannot use: an item that needs it reads as absent.
struct UnusableBiometryStore: CredentialStore {
    let inner: any CredentialStore

    func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        try await inner.save(data, service: service, account: account)
    }

    func load(service: String, account: String) async throws(StorageError) -> Data? {
        do {
            return try await inner.load(service: service, account: account)
        } catch  where error.code == .authenticationFailed {
            WardenLogger(category: "apple").notice(
                "the refresh token is bound to biometry this app can no longer use (Face ID turned off for it, or "
                    + "nothing enrolled): it cannot be read; the user signs in again")
            return nil
        }
    }

    func delete(service: String, account: String) async throws(StorageError) {
        try await inner.delete(service: service, account: account)
    }

    func deleteAll(service: String) async throws(StorageError) { try await inner.deleteAll(service: service) }

    func accounts(service: String) async throws(StorageError) -> [String] {
        try await inner.accounts(service: service)
    }

    var grantLock: any GrantLock { inner.grantLock }
}
