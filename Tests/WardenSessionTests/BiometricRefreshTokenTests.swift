import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession
@testable import WardenStorage
@testable import WardenTesting

/// A stand-in for a `.biometryCurrentSet` Keychain item: every read is a prompt, which the "user" releases,
/// cancels, or which fails because the enrolled biometry changed (the item is gone).
actor BiometricItemStore: CredentialStore {
    enum Prompt { case release, cancel, fail, reenrolled, background }
    let inner = InMemoryStore()
    var prompt = Prompt.release
    var prompts = 0

    func setPrompt(_ value: Prompt) { prompt = value }

    func save(_ data: Data, service: String, account: String) async throws(StorageError) {
        try await inner.save(data, service: service, account: account)
    }
    func load(service: String, account: String) async throws(StorageError) -> Data? {
        // As the Keychain: a read prompts only when an access-controlled item matches.
        guard try await inner.load(service: service, account: account) != nil else { return nil }
        prompts += 1
        switch prompt {
        case .release: return try await inner.load(service: service, account: account)
        case .cancel: throw StorageError(.userCancelled)
        case .fail: throw StorageError(.authenticationFailed)
        case .reenrolled: return nil  // errSecItemNotFound: the item was invalidated
        case .background: throw StorageError(.interactionNotAllowed)  // no UI can be shown: errSecInteractionNotAllowed
        }
    }
    func delete(service: String, account: String) async throws(StorageError) {
        try await inner.delete(service: service, account: account)
    }
    func deleteAll(service: String) async throws(StorageError) { try await inner.deleteAll(service: service) }
    func accounts(service: String) async throws(StorageError) -> [String] {
        try await inner.accounts(service: service)
    }
    func raw(service: String, account: String) async throws -> Data? {
        try await inner.load(service: service, account: account)
    }
}

@Suite("Biometric-bound refresh token (split token store)")
struct BiometricRefreshTokenTests {
    struct Setup {
        let clock = ManualDate()
        let provider = FakeProvider()
        let tokens = InMemoryStore()
        let protected = BiometricItemStore()
        var store: SplitTokenStore { SplitTokenStore(tokens: tokens, refreshTokens: protected) }
    }

    /// Stores an expired set through the split store and restores a session from it, as an app launch does.
    func restored(_ setup: Setup) async throws -> AuthSession {
        try await setup.store.saveTokens(Fixture.expired(setup.clock), service: "svc", account: "a")
        return try await AuthSession.restore(
            store: setup.store, service: "svc", account: "a", refresher: setup.provider, now: setup.clock.now)
    }

    @Test func theAccessTokenItemNeverHoldsTheRefreshTokenAndRestoringNeverPrompts() async throws {
        let setup = Setup()
        let session = try await restored(setup)
        let main = try #require(await setup.tokens.load(service: "svc", account: "a"))
        #expect(!String(decoding: main, as: UTF8.self).contains("rt-0"))
        #expect(try TokenSet(encoded: main).refreshTokenHeldSeparately)
        #expect(await setup.protected.prompts == 0, "restoring and reading the access token must not prompt")
        #expect(await session.currentTokens?.accessToken.unredacted() == "at-0")
        #expect(await session.state == .signedIn)
    }

    @Test func oneRefreshForABurstPromptsOnceAndStoresTheRotatedTokenInTheProtectedItem() async throws {
        let setup = Setup()
        let session = try await restored(setup)
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<20 { group.addTask { try? await session.validAccessToken() } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(tokens.allSatisfy { $0 == "at-1" })
        #expect(await setup.protected.prompts == 1)
        #expect(await setup.provider.refreshes == 1)
        let rotated = try await setup.protected.raw(service: "svc.refresh-token", account: "a")
        #expect(rotated.map { String(decoding: $0, as: UTF8.self) } == "rt-1")
        let main = try #require(await setup.tokens.load(service: "svc", account: "a"))
        #expect(!String(decoding: main, as: UTF8.self).contains("rt-1"))
        #expect(await session.currentTokens?.refreshToken == nil, "not kept in memory after use")
    }

    /// An app's own token store that wraps the split store (logging, metrics, a migration) and forwards what it
    /// does not change: the session still refreshes through the protected item. The session asks the store whether
    /// it keeps refresh tokens apart, never what type it is, so the wrapper is not mistaken for a one-item store
    /// (which would end in "no refresh token": signed out).
    /// (It forwards everything but `saveTokens` through ``DelegatingTokenStore``, as an app's wrapper must.)
    struct LoggingStore: DelegatingTokenStore {
        let inner: SplitTokenStore
        let writes = Locked(0)
        func saveTokens(_ tokens: TokenSet, service: String, account: String) async throws(StorageError) {
            writes.withLock { $0 += 1 }
            try await inner.saveTokens(tokens, service: service, account: account)
        }
    }

    @Test func aWrappingTokenStoreKeepsTheSplitWorkingFromRestoreToSignOut() async throws {
        let setup = Setup()
        let wrapper = LoggingStore(inner: setup.store)
        try await wrapper.saveTokens(Fixture.expired(setup.clock), service: "svc", account: "a")
        let session = try await AuthSession.restore(
            store: wrapper, service: "svc", account: "a", refresher: setup.provider, now: setup.clock.now)
        #expect(try await session.validAccessToken() == "at-1")
        #expect(await setup.protected.prompts == 1, "the refresh token came from the protected item")
        #expect(await session.currentTokens?.refreshToken == nil, "not kept in memory after use")
        #expect(wrapper.writes.current == 2, "the first save and the rotated set")
        // Sign-out through the wrapper deletes both halves (the protected item is not read to revoke it: no prompt).
        _ = await session.signOut()
        #expect(try await setup.tokens.load(service: "svc", account: "a") == nil)
        #expect(try await setup.protected.raw(service: "svc.refresh-token", account: "a") == nil)
        #expect(await setup.protected.prompts == 1)
    }

    /// A store that is both a credential store and a token store is taken as the token store (the credential-store
    /// forms are disfavoured), so its own split is used.
    struct BothStore: CredentialStore, DelegatingTokenStore {
        let inner: SplitTokenStore
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            try await inner.records.save(data, service: service, account: account)
        }
        func load(service: String, account: String) async throws(StorageError) -> Data? {
            try await inner.records.load(service: service, account: account)
        }
        func delete(service: String, account: String) async throws(StorageError) {
            try await inner.records.delete(service: service, account: account)
        }
        func deleteAll(service: String) async throws(StorageError) {
            try await inner.records.deleteAll(service: service)
        }
        func accounts(service: String) async throws(StorageError) -> [String] {
            try await inner.records.accounts(service: service)
        }
        var grantLock: any GrantLock { inner.grantLock }
    }

    @Test func aStoreOfBothKindsIsTakenAsTheTokenStore() async throws {
        let setup = Setup()
        let both = BothStore(inner: setup.store)
        try await both.saveTokens(Fixture.expired(setup.clock), service: "svc", account: "a")
        let session = try await AuthSession.restore(
            store: both, service: "svc", account: "a", refresher: setup.provider, now: setup.clock.now)
        #expect(try await session.validAccessToken() == "at-1", "an item store would find no refresh token")
        #expect(await setup.protected.prompts == 1)
        #expect(!ItemTokenStore(InMemoryStore()).keepsRefreshTokensApart && setup.store.keepsRefreshTokensApart)
    }

    @Test(arguments: [BiometricItemStore.Prompt.cancel, .fail])
    func aRefusedPromptKeepsTheSessionAndDoesNotLoop(_ prompt: BiometricItemStore.Prompt) async throws {
        let setup = Setup()
        let session = try await restored(setup)
        await setup.protected.setPrompt(prompt)
        await #expect(throws: SessionError(.refreshTokenLocked, "")) { try await session.validAccessToken() }
        #expect(await setup.protected.prompts == 1, "one prompt per call, no retry loop")
        #expect(await setup.provider.refreshes == 0)
        #expect(try await setup.tokens.load(service: "svc", account: "a") != nil)
        let kept = try await setup.protected.raw(service: "svc.refresh-token", account: "a")
        #expect(kept.map { String(decoding: $0, as: UTF8.self) } == "rt-0")
        // The user tries again and lets it through.
        await setup.protected.setPrompt(.release)
        #expect(try await session.validAccessToken() == "at-1")
    }

    @Test func biometricReenrolmentSignsOutCleanlyOnce() async throws {
        let setup = Setup()
        let session = try await restored(setup)
        await setup.protected.setPrompt(.reenrolled)
        await #expect(throws: SessionError(.signedOut, "")) { try await session.validAccessToken() }
        guard case .signedOut(let reason) = await session.state else {
            Issue.record("the session must be signed out")
            return
        }
        #expect(reason == .refreshTokenUnreadable)
        #expect(try await setup.tokens.load(service: "svc", account: "a") == nil)
        let gone = try await setup.protected.raw(service: "svc.refresh-token", account: "a")
        #expect(gone == nil)
        // No loop: further calls fail at once without prompting or calling the provider.
        await #expect(throws: SessionError(.signedOut, "")) { try await session.validAccessToken() }
        #expect(await setup.protected.prompts == 1)
        #expect(await setup.provider.refreshes == 0)
    }

    @Test func aSetWithoutRefreshTokenDeletesAStaleProtectedItem() async throws {
        let setup = Setup()
        try await setup.protected.save(Data("stale".utf8), service: "svc.refresh-token", account: "a")
        let set = TokenSet(
            accessToken: "at", refreshToken: nil, idToken: nil, expiresAt: nil, scope: nil, issuer: "https://id")
        try await setup.store.saveTokens(set, service: "svc", account: "a")
        let gone = try await setup.protected.raw(service: "svc.refresh-token", account: "a")
        #expect(gone == nil)
        #expect(try await setup.store.loadRefreshToken(service: "svc", account: "a") == nil)
    }

    /// The README's setup through the public door: an app signs in with a split store whose two halves are Keychain
    /// stores on one keychain, refreshes, is killed and relaunched, and refreshes again. With one primary key for both
    /// halves the token set overwrote the refresh token and the first refresh signed the user out.
    @Test func anAuthClientOnOneKeychainRefreshesAcrossARelaunch() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        defer { provider.stop() }
        let keychain = KeychainModel()
        func launch() throws -> AuthClient {
            var background = KeychainQuery.Configuration()
            background.accessibility = .afterFirstUnlockThisDeviceOnly
            var biometric = KeychainQuery.Configuration()
            biometric.accessibility = .whenPasscodeSetThisDeviceOnly
            biometric.accessControl = .biometryCurrentSet
            let store = SplitTokenStore(
                tokens: KeychainItemStore(
                    api: keychain.api, configuration: background, grantLock: ProcessGrantLock.shared),
                refreshTokens: KeychainItemStore(
                    api: keychain.api, configuration: biometric, grantLock: ProcessGrantLock.shared))
            return AuthClient(
                .init(
                    issuer: provider.issuer, clientID: provider.clientID,
                    redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
                    scopes: ["openid", "offline_access"], store: store, service: "svc", account: "alice"))
        }
        let first = try launch()
        let signIn = try await first.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        let session = signIn.session
        provider.expireAccessTokens()
        _ = try await session.validAccessToken(minTTL: 1e9)
        #expect(await session.state == .signedIn)
        #expect(keychain.keys.map(\.service).sorted() == ["svc", "svc.refresh-token"])

        let relaunched = try #require(await launch().restoreSession())
        provider.expireAccessTokens()
        let refreshes = provider.count("token.refresh_token")
        _ = try await relaunched.validAccessToken(minTTL: 1e9)
        #expect(provider.count("token.refresh_token") == refreshes + 1)
        #expect(await relaunched.state == .signedIn, "the rotated refresh token survived the relaunch")
        await relaunched.signOut()
        #expect(keychain.keys.isEmpty, "sign-out removes both items")
    }

    /// Background refresh with a Face ID-bound refresh token, through the public door: the app signs in and is
    /// killed; the system relaunches it in the background (a background refresh task) after the access token expired.
    /// A refresh there cannot prompt: the session stays (degraded, no request sent, nothing signed out) and the
    /// access-token item is still readable; back in the foreground the next call prompts once and refreshes. (The
    /// process that signed in still holds the refresh token it received, in memory, and refreshes without a prompt.)
    @Test func aBackgroundRefreshCannotPromptAndKeepsTheSession() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: ["com.example.app:/oauth/callback"])
        defer { provider.stop() }
        let tokens = InMemoryStore()
        let protected = BiometricItemStore()
        func launch() throws -> AuthClient {
            AuthClient(
                .init(
                    issuer: provider.issuer, clientID: provider.clientID,
                    redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
                    store: SplitTokenStore(tokens: tokens, refreshTokens: protected), service: "svc"))
        }
        _ = try await launch().signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        #expect(await protected.prompts == 0, "signing in writes the protected item without reading it")
        let session = try #require(await launch().restoreSession())
        #expect(await protected.prompts == 0, "restoring never prompts")

        await protected.setPrompt(.background)
        provider.expireAccessTokens()
        await #expect(throws: SessionError(.degraded, "")) { _ = try await session.validAccessToken(minTTL: 1e9) }
        #expect(await session.state == .degraded(reason: .storeUnavailable(.interactionNotAllowed)))
        #expect(provider.count("token.refresh_token") == 0)
        #expect(try await tokens.load(service: "svc", account: "default") != nil, "the session is still stored")

        await protected.setPrompt(.release)
        _ = try await session.validAccessToken(minTTL: 1e9)
        #expect(await session.state == .signedIn)
        let prompts = await protected.prompts
        #expect(provider.count("token.refresh_token") == 1 && prompts == 2, "the background read and this one")
    }
}
