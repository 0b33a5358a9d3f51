import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

#if canImport(Observation)
    import Observation
#endif

/// The object a SwiftUI view observes, through the public API on the local provider: it follows the session's own
/// state stream, so what happens to the session elsewhere (an extension signs out, the network fails) reaches it
/// without the view asking.
@Suite("The account a view observes", .serialized)
@MainActor
struct SessionControllerTests {
    static let redirect = "com.example.app:/oauth/callback"

    static func client(_ provider: LocalProvider, store: any CredentialStore) throws -> AuthClient {
        AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
                scopes: ["openid", "offline_access"], store: store, service: "svc", account: "alice"))
    }

    /// Waits (a bounded number of turns, not a time) until `condition` holds.
    static func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func followsSignInRestoreSignOutElsewhereAndSignOut() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        let store = InMemoryStore()
        let controller = SessionController(client: try Self.client(provider, store: store))
        var changes = 0
        controller.onChange = { _ in changes += 1 }
        #expect(controller.state == .signedOut(reason: .noSession) && controller.session == nil)

        try await controller.restore()
        #expect(controller.state == .signedOut(reason: .noSession) && !controller.isWorking)

        try await controller.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(await Self.eventually { controller.state == .signedIn && controller.claims != nil })
        #expect(try controller.claims?.subject == "demo-user-1")
        #expect(!controller.isWorking && changes > 0)

        // A second launch restores without the network and names the user.
        let relaunched = SessionController(client: try Self.client(provider, store: store))
        try await relaunched.restore()
        #expect(await Self.eventually { relaunched.state == .signedIn && relaunched.claims != nil })

        // Another holder of the grant (an extension) signs out: the next use shows it here, with its typed reason.
        await relaunched.signOut()
        #expect(relaunched.state == .signedOut(reason: .userSignedOut) && relaunched.session == nil)
        provider.expireAccessTokens()
        let session = try #require(controller.session)
        _ = try? await session.validAccessToken(minTTL: 1e9)
        #expect(await Self.eventually { controller.state == .signedOut(reason: .signedOutElsewhere) })

        // Signing out here ends it for good.
        await controller.signOut()
        #expect(controller.state == .signedOut(reason: .userSignedOut) && controller.claims == nil)
    }

    @Test func aFailedSignInLeavesItSignedOutAndIdle() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        let controller = SessionController(client: try Self.client(provider, store: InMemoryStore()))
        struct Refusing: AuthorizationBrowser {
            func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
                throw OAuthError(.accessDenied, "the user said no")
            }
        }
        await #expect(throws: OAuthError(.accessDenied)) { try await controller.signIn(with: Refusing()) }
        #expect(controller.state == .signedOut(reason: .noSession) && !controller.isWorking)
    }

    #if canImport(Observation)
        /// The `@Observable` model tells Observation when the state a view read changes.
        @available(iOS 17.0, macOS 14.0, macCatalyst 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func theObservableModelNotifiesWhatAViewRead() async throws {
            let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
            defer { provider.stop() }
            let model = ObservableSessionModel(client: try Self.client(provider, store: InMemoryStore()))
            let notified = Locked(false)
            withObservationTracking {
                _ = model.state
            } onChange: {
                notified.withLock { $0 = true }
            }
            try await model.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
            #expect(await Self.eventually { model.state == .signedIn && model.claims != nil })
            #expect(notified.withLock { $0 }, "reading state subscribed the view to it")
            #expect(model.session != nil && !model.isWorking)
            await model.signOut()
            #expect(model.state == .signedOut(reason: .userSignedOut) && model.session == nil)
        }
    #endif
}

/// A restore that finds the stored tokens bound to a DPoP key this holder lacks says so, not "no session".
@Suite("Signed-out reasons at restore")
struct RestoreReasonTests {
    @Test func aMissingDPoPKeyIsItsOwnReason() async throws {
        let store = InMemoryStore()
        var tokens = TokenSet(
            accessToken: "a", refreshToken: "r", idToken: nil, expiresAt: nil, scope: nil, issuer: "https://i")
        tokens.dpopThumbprint = "thumbprint-of-a-key-that-is-gone"
        try await store.save(try tokens.encoded(), service: "svc", account: "a")
        let session = try await AuthSession.restore(
            store: store, service: "svc", account: "a", refresher: FakeProvider())
        #expect(await session.state == .signedOut(reason: .dpopKeyUnavailable))
        #expect(try await store.load(service: "svc", account: "a") == nil)
        let empty = try await AuthSession.restore(
            store: InMemoryStore(), service: "svc", account: "a", refresher: FakeProvider())
        #expect(await empty.state == .signedOut(reason: .noSession))
    }
}
