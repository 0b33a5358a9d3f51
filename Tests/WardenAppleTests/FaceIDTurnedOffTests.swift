import Foundation
import Testing
import WardenCore
import WardenOAuth
import WardenSession
import WardenStorage
import WardenTestSupport
import WardenTesting

@testable import WardenApple

/// Face ID turned off for the app in Settings after a launch bound the refresh token to it, run over the Keychain
/// model (rule K10: such an item cannot be read, no sheet, no passcode fallback) through `AuthSession`: the session
/// ends once with "sign in again" instead of failing every refresh for ever, and sign-out still deletes every item.
@Suite("Face ID turned off for the app")
struct FaceIDTurnedOffTests {
    /// A provider that rotates and records what it was asked to revoke.
    final class Provider: TokenRefresher, @unchecked Sendable {  // state in Locked
        let revoked = Locked<[String]>([])
        let refreshes = Locked(0)
        func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
            let number = refreshes.withLock { value -> Int in
                value += 1
                return value
            }
            return TokenResponse(
                accessToken: "at-\(number)", expiresIn: 3600, refreshToken: "rt-\(number)", idToken: nil, scope: nil)
        }
        func revoke(token: String, hint: String) async throws(OAuthError) { revoked.withLock { $0.append(hint) } }
    }

    /// The split store `SessionStores.forThisDevice` builds for `protection`, over the model.
    static func store(
        _ model: KeychainModel, _ protection: RefreshTokenProtection, laErrorCode: Int? = -6,
        inAppExtension: Bool = false
    ) -> SplitTokenStore {
        SplitTokenStore(
            tokens: model.store(accessibility: .afterFirstUnlockThisDeviceOnly),
            refreshTokens: protection.refreshTokenStore(
                bound: model.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet),
                plain: model.store(accessibility: .afterFirstUnlockThisDeviceOnly),
                biometryUnusable: RefreshTokenProtection.biometryUnusable(
                    laErrorCode: laErrorCode, inAppExtension: inAppExtension)))
    }

    /// A device-only decision for any other reason — an extension without a usage description, an invalidated context,
    /// an unknown error — does not say biometry is gone: a failed read is not taken for a lost token, the session is
    /// kept (the user is never signed out by a failed match or an extension's plist).
    @Test(arguments: [(-10, false), (-1, false), (nil, false), (-6, true)] as [(Int?, Bool)])
    func onlyADefiniteAnswerReadsABoundItemAsGone(laErrorCode: Int?, inAppExtension: Bool) async throws {
        let model = KeychainModel()
        let clock = ManualDate()
        try await Self.store(model, .biometryBound).saveTokens(Self.expired(clock), service: "svc", account: "a")
        model.biometry = .unavailable
        let store = Self.store(
            model, .deviceOnly(reason: "test"), laErrorCode: laErrorCode, inAppExtension: inAppExtension)
        let session = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: Provider(), now: clock.now)
        let error = await #expect(throws: SessionError.self) { _ = try await session.validAccessToken() }
        #expect(error?.code != .signedOut, "\(String(describing: error))")
        #expect(try await store.loadTokens(service: "svc", account: "a") != nil, "nothing was deleted")
    }

    static func expired(_ clock: ManualDate) -> TokenSet {
        TokenSet(
            accessToken: "at-0", refreshToken: "rt-0", idToken: nil,
            expiresAt: clock.date.current.addingTimeInterval(-10), scope: nil, issuer: "https://id.example.com")
    }

    @Test func theNextRefreshEndsTheSessionOnceAndNothingIsLeft() async throws {
        let model = KeychainModel()
        let clock = ManualDate()
        // Launch 1: Face ID available, the refresh token is bound to it.
        try await Self.store(model, .biometryBound).saveTokens(Self.expired(clock), service: "svc", account: "a")
        // Face ID turned off for the app; launch 2 decides device-only, as forThisDevice does.
        model.biometry = .unavailable
        let protection = RefreshTokenProtection.decide(canEvaluateBiometrics: false, failure: .unavailable)
        let store = Self.store(model, protection)
        let provider = Provider()
        let session = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: provider, now: clock.now)
        let error = await #expect(throws: SessionError.self) { _ = try await session.validAccessToken() }
        #expect(error?.code == .signedOut, "\(String(describing: error))")
        #expect(await session.state != .signedIn)
        #expect(provider.refreshes.current == 0, "nothing was spent")
        #expect(try await store.loadTokens(service: "svc", account: "a") == nil)
        #expect(model.prompts.isEmpty, "no sheet could be shown")
        // A fresh sign-in under the new decision works without Face ID.
        try await store.saveTokens(Self.expired(clock), service: "svc", account: "a")
        let again = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: provider, now: clock.now)
        #expect(try await again.validAccessToken() == "at-1")
    }

    /// Sign-out in that state deletes both items (no authentication needed) and reports that what it revoked is the
    /// access token: the refresh token it cannot read is not revoked.
    @Test func signOutDeletesEveryItemAndSaysWhatItCouldRevoke() async throws {
        let model = KeychainModel()
        let clock = ManualDate()
        var tokens = Self.expired(clock)
        tokens.expiresAt = clock.date.current.addingTimeInterval(3600)
        try await Self.store(model, .biometryBound).saveTokens(tokens, service: "svc", account: "a")
        model.biometry = .unavailable
        let store = Self.store(model, .decide(canEvaluateBiometrics: false, failure: .unavailable))
        let provider = Provider()
        let session = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: provider, now: clock.now)
        let report = await session.signOut()
        #expect(report.localDataDeleted)
        #expect(report.revocation == .revoked(tokenType: "access_token"))
        #expect(provider.revoked.current == ["access_token"])
        #expect(model.peek("svc.refresh-token", "a") == nil && model.peek("svc", "a") == nil)
    }
}
