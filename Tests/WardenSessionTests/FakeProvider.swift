import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// A token endpoint that rotates refresh tokens and rejects reuse, like a real provider.
actor FakeProvider: TokenRefresher {
    var validRefreshTokens: Set<String> = ["rt-0"]
    var refreshes = 0
    var generation = 0
    var failure: OAuthError?
    var delay: Duration = .zero
    var omitRefreshToken = false
    var revoked: [String] = []

    func setFailure(_ error: OAuthError?) { failure = error }
    func setDelay(_ delay: Duration) { self.delay = delay }
    func setOmitRefreshToken(_ value: Bool) { omitRefreshToken = value }

    func refresh(refreshToken: String, scope: String?) async throws(OAuthError) -> TokenResponse {
        refreshes += 1
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
        guard validRefreshTokens.contains(refreshToken) else {
            throw OAuthError(.invalidGrant, "reused or unknown refresh token", status: 400, fromTokenEndpoint: true)
        }
        generation += 1
        if omitRefreshToken {
            return TokenResponse(
                accessToken: "at-\(generation)", expiresIn: 3600, refreshToken: nil, idToken: nil, scope: nil)
        }
        validRefreshTokens = ["rt-\(generation)"]  // rotation: the old one dies
        return TokenResponse(
            accessToken: "at-\(generation)", expiresIn: 3600, refreshToken: "rt-\(generation)", idToken: nil, scope: nil
        )
    }

    func revoke(token: String, hint: String) async throws(OAuthError) { revoked.append(hint) }
}

enum Fixture {
    static func expired(_ clock: ManualDate) -> TokenSet {
        TokenSet(
            accessToken: "at-0", refreshToken: "rt-0", idToken: nil,
            expiresAt: clock.date.current.addingTimeInterval(-10), scope: nil, issuer: "https://id.example.com")
    }
}

extension Fixture {
    /// A session for `svc`/`a` whose access token (at-0, refresh token rt-0) is valid for an hour on `clock`, over an
    /// in-memory store.
    static func freshSession(_ clock: ManualDate, refresher: any TokenRefresher = FakeProvider()) -> AuthSession {
        var fresh = expired(clock)
        fresh.expiresAt = clock.date.current.addingTimeInterval(3600)
        return AuthSession(
            tokens: fresh, store: InMemoryStore(), service: "svc", account: "a", refresher: refresher, now: clock.now)
    }

    /// A session for `svc`/`a` whose access token (at-0, refresh token rt-0) expired ten seconds ago, with its clock,
    /// fake provider and in-memory store.
    static func expiredSession(maximumRefreshes: Int = 5) -> (ManualDate, FakeProvider, InMemoryStore, AuthSession) {
        let clock = ManualDate()
        let provider = FakeProvider()
        let store = InMemoryStore()
        let session = AuthSession(
            tokens: expired(clock), store: store, service: "svc", account: "a", refresher: provider,
            maximumRefreshes: maximumRefreshes, now: clock.now)
        return (clock, provider, store, session)
    }
}
