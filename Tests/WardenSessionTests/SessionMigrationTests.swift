import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport
import WardenTesting

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// Users another SDK signed in stay signed in when the app moves to Warden: each SDK's item is built as that SDK
/// writes it (its archived class names and keys, or its JSON), read by ``AuthClient/migrateSession(_:)``, stored as a
/// Warden session, refreshed at the provider through the public API, and the old item is gone.
@Suite("Migration from another SDK", .serialized)
struct SessionMigrationTests {
    static let redirect = "com.example.app:/oauth/callback"

    /// A real grant of the local provider (a refresh token it honours, an ID token it signed), as the other SDK held it.
    struct Grant {
        let provider: LocalProvider
        let tokens: TokenSet
        var accessToken: String { tokens.accessToken.unredacted() }
        var refreshToken: String { tokens.refreshToken!.unredacted() }
        var idToken: String { tokens.idToken!.unredacted() }
    }

    static func grant() async throws -> Grant {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [redirect])
        let scratch = InMemoryStore()
        let signIn = try await client(provider, store: scratch).signIn(
            with: ScriptedBrowser(transport: URLSessionTransport()))
        let tokens = try #require(await signIn.session.currentTokens)
        return Grant(provider: provider, tokens: tokens)
    }

    static func client(
        _ provider: LocalProvider, store: any CredentialStore, sentinel: InstallSentinel? = nil,
        clientID: String = "app"
    ) throws -> AuthClient {
        AuthClient(
            .init(
                issuer: provider.issuer, clientID: clientID, redirectURI: try RedirectURI(redirect),
                scopes: ["openid", "offline_access"], store: store, service: "svc", account: "alice",
                sentinel: sentinel))
    }

    /// The grant as Auth0.swift's item, its access token valid for ten more minutes.
    static func auth0Item(_ grant: Grant) -> Data {
        auth0Archive(
            access: grant.accessToken, refresh: grant.refreshToken, id: grant.idToken,
            expires: Date().addingTimeInterval(600))
    }

    /// Auth0.swift's `A0Credentials` (Auth0.swift 3.1.0 `Auth0/Credentials.swift:206-214`).
    static func auth0Archive(
        access: String?, refresh: String?, id: String?, expires: Date, tokenType: String = "Bearer"
    ) -> Data {
        let archive = KeyedArchive()
        let root = archive.object(
            "A0Credentials",
            [
                ("accessToken", .string(access)), ("tokenType", .string(tokenType)), ("idToken", .string(id)),
                ("refreshToken", .string(refresh)), ("expiresIn", .date(expires)),
                ("scope", .string("openid offline_access")), ("recoveryCode", .string(nil)),
            ])
        return archive.data(root: root)
    }

    /// AppAuth's `OIDAuthState` as `NSKeyedArchiver` writes it (AppAuth-iOS 2.1.0 `OIDAuthState.m:275-287`,
    /// `OIDTokenResponse.m:137-141` through `OIDFieldMapping`, `OIDTokenRequest.m:266-278`,
    /// `OIDServiceConfiguration.m:208-215`).
    static func authState(
        _ archive: KeyedArchive, _ grant: Grant, issuer: String, clientID: String = "app", error: Bool = false
    ) -> Int {
        let configuration = archive.object(
            "OIDServiceConfiguration",
            [
                ("authorizationEndpoint", .url(grant.provider.base + "/authorize")),
                ("tokenEndpoint", .url(grant.provider.base + "/token")), ("issuer", .url(issuer)),
                ("registrationEndpoint", .string(nil)), ("endSessionEndpoint", .string(nil)),
                ("discoveryDocument", .string(nil)),
            ])
        let request = archive.object(
            "OIDTokenRequest",
            [
                ("configuration", .object(configuration)), ("grant_type", .string("refresh_token")),
                ("client_id", .string(clientID)), ("client_secret", .string(nil)),
                ("redirect_uri", .url(redirect)), ("scope", .string(nil)),
                ("refresh_token", .string(grant.refreshToken)), ("code_verifier", .string(nil)),
                ("additionalParameters", .dictionary([:])), ("additionalHeaders", .dictionary([:])),
            ])
        let response = archive.object(
            "OIDTokenResponse",
            [
                ("request", .object(request)), ("access_token", .string(grant.accessToken)),
                ("expires_in", .date(Date().addingTimeInterval(-60))), ("token_type", .string("Bearer")),
                ("id_token", .string(grant.idToken)), ("refresh_token", .string(nil)),
                ("scope", .string("openid offline_access")), ("additionalParameters", .dictionary([:])),
            ])
        var fields: [(String, KeyedArchive.Field)] = [
            ("refreshToken", .string(grant.refreshToken)), ("scope", .string("openid offline_access")),
            ("lastAuthorizationResponse", .string(nil)), ("lastTokenResponse", .object(response)),
            ("needsTokenRefresh", .bool(false)),
        ]
        if error {
            fields.append(
                (
                    "authorizationError",
                    .object(
                        archive.object(
                            "NSError",
                            [("NSDomain", .string("org.openid.appauth.oauth_token")), ("NSCode", .bool(true))]
                        ))
                ))
        }
        return archive.object("OIDAuthState", fields)
    }

    /// After a migration: the old item is gone, Warden holds the session, `who` answers offline, and a refresh at the
    /// provider goes through (the migrated refresh token is a live grant, not a copy that signs out at first use).
    func expectMigrated(
        _ outcome: SessionMigration.Outcome, _ grant: Grant, legacy: InMemoryStore, service: String, account: String,
        store: InMemoryStore
    ) async throws {
        guard case .migrated(let session) = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        #expect(try await legacy.load(service: service, account: account) == nil, "the old item is deleted")
        #expect(try await store.load(service: "svc", account: "alice") != nil, "Warden holds the session")
        #expect(try await session.idTokenClaims?.subject == "demo-user-1")
        grant.provider.expireAccessTokens()
        let refreshes = grant.provider.count("token.refresh_token")
        _ = try await session.validAccessToken(minTTL: 1e9)
        #expect(grant.provider.count("token.refresh_token") == refreshes + 1)
        #expect(await session.state == .signedIn)
    }

    @Test func auth0CredentialsManagerItem() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        try await legacy.save(
            Self.auth0Item(grant), service: "com.example.app", account: "credentials")
        let outcome = try await Self.client(grant.provider, store: store).migrateSession(
            SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: nil))
        try await expectMigrated(
            outcome, grant, legacy: legacy, service: "com.example.app", account: "credentials", store: store)
    }

    @Test func appAuthArchivedState() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        let archive = KeyedArchive()
        let root = Self.authState(archive, grant, issuer: grant.provider.issuer)
        try await legacy.save(archive.data(root: root), service: "com.example.app.auth", account: "authState")
        let outcome = try await Self.client(grant.provider, store: store).migrateSession(
            SessionMigration(
                from: .appAuth(service: "com.example.app.auth", account: "authState"), in: legacy,
                earlierVersionRan: nil))
        try await expectMigrated(
            outcome, grant, legacy: legacy, service: "com.example.app.auth", account: "authState", store: store)
    }

    @Test func gtmAppAuthAuthorizationRenamedAsItsLegacyClass() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        // GTMAppAuth 5.0.0 `KeychainStore.swift:136-155`: `setClassName("GTMAppAuthFetcherAuthorization")`, which
        // writes `$classname` without `$classes`; account "OAuth", service the item name.
        let archive = KeyedArchive()
        let state = Self.authState(archive, grant, issuer: grant.provider.issuer)
        let root = archive.object(
            "GTMAppAuthFetcherAuthorization", renamed: true,
            [
                ("authState", .object(state)), ("serviceProvider", .string("Google")),
                ("userID", .string("demo-user-1")), ("userEmail", .string(nil)),
                ("userEmailIsVerified", .string("false")),
            ])
        try await legacy.save(archive.data(root: root), service: "auth", account: "OAuth")
        let outcome = try await Self.client(grant.provider, store: store).migrateSession(
            SessionMigration(from: .gtmAppAuth(itemName: "auth"), in: legacy, earlierVersionRan: nil))
        try await expectMigrated(outcome, grant, legacy: legacy, service: "auth", account: "OAuth", store: store)
    }

    @Test func gtmOAuth2StringRefreshesAtFirstUse() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        // GTMAppAuth 5.0.0 `GTMOAuth2Compatibility.swift:69-97`: sorted, percent-encoded fields, no expiry.
        let encoded = grant.refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let text = "access_token=\(grant.accessToken)&refresh_token=\(encoded)&scope=openid&serviceProvider=Google"
        try await legacy.save(Data(text.utf8), service: "legacy-item", account: "OAuth")
        let client = try Self.client(grant.provider, store: store)
        let outcome = try await client.migrateSession(
            SessionMigration(from: .gtmAppAuth(itemName: "legacy-item"), in: legacy, earlierVersionRan: nil))
        guard case .migrated(let session) = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        let refreshes = grant.provider.count("token.refresh_token")
        _ = try await session.validAccessToken()
        #expect(grant.provider.count("token.refresh_token") == refreshes + 1, "no expiry stored: refreshed first")
        #expect(try await legacy.load(service: "legacy-item", account: "OAuth") == nil)
    }

    /// okta-mobile-swift 2.1.4 `Token.swift:223-229` (rawValue a JSON string), its master (rawValue an object) and 1.8.3
    /// (camel-case fields); `issuedAt` in seconds since 2001.
    @Test(arguments: ["string", "object", "v1"])
    func oktaTokenStorage(_ layout: String) async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        let id = UUID().uuidString
        let issued = Date().timeIntervalSinceReferenceDate - 100
        let response =
            #"{"token_type":"Bearer","expires_in":3600,"access_token":"\#(grant.accessToken)","scope":"openid offline_access","refresh_token":"\#(grant.refreshToken)","id_token":"\#(grant.idToken)"}"#
        let configuration =
            layout == "v1"
            ? #"{"baseURL":"\#(grant.provider.issuer)","clientId":"app","scopes":"openid offline_access"}"#
            : #"{"issuerURL":"\#(grant.provider.issuer)","clientId":"app","scope":"openid offline_access","authentication":{"none":{}}}"#
        let json: String
        switch layout {
        case "string":
            let quoted = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
            json =
                #"{"id":"\#(id)","issuedAt":\#(issued),"context":{"configuration":\#(configuration)},"rawValue":\#(quoted)}"#
        case "object":
            json =
                #"{"id":"\#(id)","issuedAt":\#(issued),"context":{"configuration":\#(configuration)},"rawValue":\#(response)}"#
        default:
            json =
                #"{"id":"\#(id)","issuedAt":\#(issued),"tokenType":"Bearer","expiresIn":3600,"accessToken":"\#(grant.accessToken)","refreshToken":"\#(grant.refreshToken)","idToken":"\#(grant.idToken)","scope":"openid offline_access","context":{"configuration":\#(configuration)}}"#
        }
        try await legacy.save(Data(json.utf8), service: SessionMigration.oktaTokens, account: id)
        try await legacy.save(
            Data(#"{"id":"\#(id)","tags":{}}"#.utf8), service: SessionMigration.oktaMetadata, account: id)
        let client = try Self.client(grant.provider, store: store)
        let outcome = try await client.migrateSession(
            SessionMigration(from: .okta(), in: legacy, earlierVersionRan: nil))
        guard case .migrated(let session) = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        let expiry = try #require(await session.currentTokens?.expiresAt)
        #expect(abs(expiry.timeIntervalSinceReferenceDate - (issued + 3600)) < 1, "issuedAt + expires_in, 2001-based")
        #expect(try await legacy.load(service: SessionMigration.oktaMetadata, account: id) == nil)
        try await expectMigrated(
            outcome, grant, legacy: legacy, service: SessionMigration.oktaTokens, account: id, store: store)
    }

    @Test func plainItemsOfTheApp() async throws {
        for source in ["json", "refresh"] {
            let grant = try await Self.grant()
            defer { grant.provider.stop() }
            let legacy = InMemoryStore()
            let store = InMemoryStore()
            let body =
                source == "json"
                ? #"{"access_token":"\#(grant.accessToken)","refresh_token":"\#(grant.refreshToken)","expires_in":3600}"#
                : grant.refreshToken + "\n"
            try await legacy.save(Data(body.utf8), service: "app.tokens", account: "me")
            let outcome = try await Self.client(grant.provider, store: store).migrateSession(
                SessionMigration(
                    from: source == "json"
                        ? .tokenResponseJSON(service: "app.tokens", account: "me")
                        : .refreshToken(service: "app.tokens", account: "me"), in: legacy, earlierVersionRan: nil))
            guard case .migrated(let session) = outcome else {
                Issue.record("\(source): expected a migration, got \(outcome)")
                continue
            }
            let refreshes = grant.provider.count("token.refresh_token")
            _ = try await session.validAccessToken()
            #expect(grant.provider.count("token.refresh_token") == refreshes + 1, "\(source): refreshed at first use")
            #expect(try await legacy.load(service: "app.tokens", account: "me") == nil)
        }
    }

    // MARK: - Interrupted, run twice, reinstalled

    /// A store whose writes or deletes fail, standing for a kill at that step.
    actor FailingStore: DelegatingStore {
        let inner = InMemoryStore()
        var failSaves = false
        var failDeletes = false
        func fail(saves: Bool, deletes: Bool) {
            failSaves = saves
            failDeletes = deletes
        }
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            if failSaves { throw StorageError(.interactionNotAllowed, "killed before the write") }
            try await inner.save(data, service: service, account: account)
        }
        func delete(service: String, account: String) async throws(StorageError) {
            if failDeletes { throw StorageError(.interactionNotAllowed, "killed before the delete") }
            try await inner.delete(service: service, account: account)
        }
    }

    @Test func aKillAtAnyStepLosesNothingAndNeverLeavesTwoLiveCopies() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = FailingStore()
        let store = FailingStore()
        let item = Self.auth0Item(grant)
        try await legacy.save(item, service: "com.example.app", account: "credentials")
        let migration = SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: nil)
        let client = try Self.client(grant.provider, store: store)

        // Killed before Warden's write: nothing changed, the old item is intact.
        await store.fail(saves: true, deletes: false)
        let beforeWrite = await #expect(throws: MigrationError.self) { try await client.migrateSession(migration) }
        #expect(beforeWrite?.code == .storeUnavailable && beforeWrite?.failureKind == .transient)
        #expect(try await legacy.load(service: "com.example.app", account: "credentials") == item)
        #expect(try await store.load(service: "svc", account: "alice") == nil)

        // Killed after Warden's write, before the old item's delete.
        await store.fail(saves: false, deletes: false)
        await legacy.fail(saves: false, deletes: true)
        await #expect(throws: MigrationError.self) { try await client.migrateSession(migration) }
        #expect(try await legacy.load(service: "com.example.app", account: "credentials") != nil)
        let first = try #require(await client.restoreSession())

        // Warden's copy is the live one: it refreshes (the provider rotates the grant) before the next launch.
        grant.provider.expireAccessTokens()
        _ = try await first.validAccessToken(minTTL: 1e9)
        let rotated = try #require(await store.load(service: "svc", account: "alice"))

        // The next launch finds Warden's session: the old item is deleted, never imported over the rotated grant.
        await legacy.fail(saves: false, deletes: false)
        guard case .alreadyMigrated(let session?) = try await client.migrateSession(migration) else {
            Issue.record("a second run must find Warden's session")
            return
        }
        #expect(try await store.load(service: "svc", account: "alice") == rotated)
        #expect(try await legacy.load(service: "com.example.app", account: "credentials") == nil)
        #expect(await session.state == .signedIn)
        guard case .alreadyMigrated = try await client.migrateSession(migration) else {
            Issue.record("a third run changes nothing")
            return
        }
    }

    @Test func theInstallSentinelKeepsUpdatedUsersAndPurgesAReinstallsItems() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-migration-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let item = Self.auth0Item(grant)

        // An update that adopts the sentinel with the migration: the earlier version's evidence keeps the user.
        let updated = InMemoryStore()
        let legacy = InMemoryStore()
        try await legacy.save(item, service: "com.example.app", account: "credentials")
        let sentinel = InstallSentinel(appID: "app", markerFile: directory.appendingPathComponent("updated"))
        let client = try Self.client(grant.provider, store: updated, sentinel: sentinel)
        let outcome = try await client.migrateSession(
            SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: { true }))
        guard case .migrated = outcome else {
            Issue.record("an update must migrate, got \(outcome)")
            return
        }
        // Every later launch restores it: the marker was written, nothing is purged.
        #expect(try await client.restoreSession() != nil)
        #expect(try await Self.client(grant.provider, store: updated, sentinel: sentinel).restoreSession() != nil)

        // A reinstall (the Keychain kept the old SDK's item, the container is new): purged, nothing imported.
        let reinstalled = InMemoryStore()
        let stale = InMemoryStore()
        try await stale.save(item, service: "com.example.app", account: "credentials")
        let fresh = InstallSentinel(appID: "app", markerFile: directory.appendingPathComponent("reinstalled"))
        let again = try Self.client(grant.provider, store: reinstalled, sentinel: fresh)
        let purged = try await again.migrateSession(
            SessionMigration(from: .auth0(service: "com.example.app"), in: stale, earlierVersionRan: { false }))
        guard case .purgedPreviousInstall = purged else {
            Issue.record("a reinstall must purge, got \(purged)")
            return
        }
        #expect(try await stale.load(service: "com.example.app", account: "credentials") == nil)
        #expect(try await reinstalled.load(service: "svc", account: "alice") == nil)
        #expect(try await again.restoreSession() == nil)
    }

    /// A reinstall whose old-SDK item cannot be deleted at the first launch (the device locked mid-way): the marker
    /// is not written, so the next launch purges again — the previous install's item is never imported.
    @Test func aReinstallInterruptedBeforeTheOldItemIsGoneNeverImportsIt() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-reinstall-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let legacy = FailingStore()
        let item = Self.auth0Item(grant)
        try await legacy.save(item, service: "com.example.app", account: "credentials")
        let store = InMemoryStore()
        let sentinel = InstallSentinel(appID: "app", markerFile: directory.appendingPathComponent("marker"))
        let client = try Self.client(grant.provider, store: store, sentinel: sentinel)
        let migration = SessionMigration(
            from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: { false })
        await legacy.fail(saves: false, deletes: true)
        await #expect(throws: MigrationError.self) { try await client.migrateSession(migration) }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("marker").path))
        await legacy.fail(saves: false, deletes: false)
        guard case .purgedPreviousInstall = try await client.migrateSession(migration) else {
            Issue.record("the next launch must purge again, not import")
            return
        }
        #expect(try await legacy.load(service: "com.example.app", account: "credentials") == nil)
        #expect(try await store.load(service: "svc", account: "alice") == nil)
    }

    /// An app that migrated in one release and adopts the sentinel in a later one keeps its users: the evidence is
    /// the sentinel's, so the plain restore at launch asks it too.
    @Test func adoptingTheSentinelInALaterReleaseKeepsMigratedUsers() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-adopt-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let legacy = InMemoryStore()
        let store = InMemoryStore()
        try await legacy.save(
            Self.auth0Item(grant), service: "com.example.app", account: "credentials")
        // Release 2: migrates, no sentinel.
        let v2 = try Self.client(grant.provider, store: store)
        guard
            case .migrated = try await v2.migrateSession(
                SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: nil))
        else {
            Issue.record("release 2 must migrate")
            return
        }
        // Release 3: a sentinel with the evidence, and only restoreSession at launch.
        var sentinel = InstallSentinel(appID: "app", markerFile: directory.appendingPathComponent("marker"))
        sentinel.earlierVersionRan = { true }
        let v3 = try Self.client(grant.provider, store: store, sentinel: sentinel)
        #expect(try await v3.restoreSession() != nil, "the migrated user survives the sentinel's first check")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("marker").path))
        // Without the evidence the same first check would purge (what a reinstall must do).
        let other = InMemoryStore()
        try await other.save(
            try #require(await store.load(service: "svc", account: "alice")), service: "svc", account: "alice")
        let bare = InstallSentinel(appID: "app", markerFile: directory.appendingPathComponent("other-marker"))
        #expect(try await Self.client(grant.provider, store: other, sentinel: bare).restoreSession() == nil)
    }

    /// Two scenes migrating at once share one run: one import, the same outcome for both.
    @Test func concurrentMigrationsImportOnce() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        let store = CountingSaves()
        try await legacy.save(
            Self.auth0Item(grant), service: "com.example.app", account: "credentials")
        let client = try Self.client(grant.provider, store: store)
        let migration = SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: nil)
        async let first = client.migrateSession(migration)
        async let second = client.migrateSession(migration)
        let outcomes = try await [first, second]
        let migrated = outcomes.filter { if case .migrated = $0 { true } else { false } }.count
        let already = outcomes.filter { if case .alreadyMigrated = $0 { true } else { false } }.count
        #expect(migrated + already == 2 && migrated >= 1)
        #expect(await store.tokenSaves == 1, "the old item was written once")
    }

    /// On the executable Keychain model (K5: an `AfterFirstUnlock` item is unreadable before the first unlock, a
    /// `WhenUnlocked` one while locked): a launch before the first unlock cannot read the old item, a locked one cannot
    /// write Warden's — each is `store_unavailable`, transient, with nothing lost — and the first launch that can do
    /// both migrates.
    @Test func aLockedDeviceDefersTheMigrationAndLosesNothing() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let keychain = KeychainModel()
        // Auth0's SimpleKeychain writes kSecAttrAccessibleAfterFirstUnlock; Warden's store is WhenUnlockedThisDeviceOnly.
        let legacy = keychain.store(accessibility: .afterFirstUnlockThisDeviceOnly)
        let store = keychain.store()
        let item = Self.auth0Item(grant)
        try await legacy.save(item, service: "com.example.app", account: "credentials")
        let client = try Self.client(grant.provider, store: store)
        let migration = SessionMigration(from: .auth0(service: "com.example.app"), in: legacy, earlierVersionRan: nil)

        for state in [DeviceLockState.beforeFirstUnlock, .locked] {
            keychain.deviceState = state
            let error = await #expect(throws: MigrationError.self) { try await client.migrateSession(migration) }
            #expect(error?.code == .storeUnavailable && error?.failureKind == .transient, "\(state)")
            keychain.deviceState = .unlocked
            #expect(try await legacy.load(service: "com.example.app", account: "credentials") == item, "\(state)")
            #expect(try await store.load(service: "svc", account: "alice") == nil, "\(state)")
        }
        guard case .migrated(let session) = try await client.migrateSession(migration) else {
            Issue.record("the first launch that can read and write must migrate")
            return
        }
        #expect(try await legacy.load(service: "com.example.app", account: "credentials") == nil)
        #expect(await session.state == .signedIn)
    }

    /// Counts the writes of the token item.
    actor CountingSaves: DelegatingStore {
        let inner = InMemoryStore()
        private(set) var tokenSaves = 0
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            if service == "svc" { tokenSaves += 1 }
            try await inner.save(data, service: service, account: account)
        }
    }

    // MARK: - Refusals

    func refusal(
        on provider: LocalProvider, _ data: Data, source: SessionMigration.Source = .auth0(service: "s", account: "a"),
        clientID: String = "app"
    ) async throws -> MigrationError? {
        let legacy = InMemoryStore()
        let (service, account): (String, String) =
            switch source {
            case .okta: (SessionMigration.oktaTokens, "t")
            case .gtmAppAuth(let name): (name, "OAuth")
            default: ("s", "a")
            }
        try await legacy.save(data, service: service, account: account)
        let store = InMemoryStore()
        let client = try Self.client(provider, store: store, clientID: clientID)
        let error = await #expect(throws: MigrationError.self) {
            try await client.migrateSession(SessionMigration(from: source, in: legacy, earlierVersionRan: nil))
        }
        #expect(try await legacy.load(service: service, account: account) == data, "a refused item is left as it was")
        #expect(try await store.load(service: "svc", account: "alice") == nil, "nothing refused is stored")
        return error
    }

    static func jwt(_ claims: String) -> String {
        "eyJhbGciOiJFUzI1NiJ9." + Base64URL.encode(Array(claims.utf8)) + ".c2ln"
    }

    @Test func everyRefusalIsTypedAndLeavesTheItem() async throws {
        let future = Date().addingTimeInterval(600)
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let provider = grant.provider
        #expect(try await refusal(on: provider, Data("garbage".utf8))?.code == .unreadable)
        #expect(
            try await refusal(on: provider, Data(repeating: 0xFF, count: 60_000))?.code == .unreadable,
            "an item-sized noise")
        #expect(try await refusal(on: provider, Data("bplist00 truncated".utf8))?.code == .unreadable)
        let other = KeyedArchive()
        let otherRoot = other.object("NSSomethingElse", [("accessToken", .string("a"))])
        #expect(
            try await refusal(on: provider, other.data(root: otherRoot))?.code == .unreadable,
            "another class at the root")
        #expect(
            try await refusal(
                on: provider, Self.auth0Archive(access: "a\u{0}b", refresh: "r", id: nil, expires: future))?.code
                == .invalidToken)
        #expect(
            try await refusal(on: provider, Self.auth0Archive(access: "a", refresh: "r\n", id: nil, expires: future))?
                .code
                == .invalidToken)
        #expect(
            try await refusal(
                on: provider,
                Self.auth0Archive(
                    access: String(repeating: "a", count: 17 * 1024), refresh: "r", id: nil, expires: future)
            )?.code == .invalidToken)
        #expect(
            try await refusal(
                on: provider,
                Self.auth0Archive(access: "a", refresh: "r", id: nil, expires: future, tokenType: "DPoP"))?.code
                == .senderConstrained)
        #expect(
            try await refusal(
                on: provider, Self.auth0Archive(access: "a", refresh: "r", id: "not-a-jws", expires: future))?.code
                == .invalidIDToken)
        let otherIssuer = Self.jwt(#"{"iss":"https://evil.example","aud":"app","sub":"x"}"#)
        #expect(
            try await refusal(
                on: provider, Self.auth0Archive(access: "a", refresh: "r", id: otherIssuer, expires: future))?.code
                == .issuerMismatch)
        let otherClient = Self.jwt(#"{"iss":"\#(grant.provider.issuer)","aud":"someone-else","sub":"x"}"#)
        #expect(
            try await refusal(
                on: provider, Self.auth0Archive(access: "a", refresh: "r", id: otherClient, expires: future))?.code
                == .clientMismatch)
        // AppAuth: an authorization error in the state, another client's request, another issuer's configuration.
        for (issuer, clientID, error, code) in [
            (grant.provider.issuer, "app", true, MigrationError.Code.notSignedIn),
            (grant.provider.issuer, "another-app", false, .clientMismatch),
            ("https://elsewhere.example", "app", false, .issuerMismatch),
        ] {
            let archive = KeyedArchive()
            let root = Self.authState(archive, grant, issuer: issuer, clientID: clientID, error: error)
            #expect(
                try await refusal(on: provider, archive.data(root: root), source: .appAuth(service: "s", account: "a"))?
                    .code == code)
        }
        #expect(try await refusal(on: provider, Data("{}".utf8), source: .okta(tokenID: "t"))?.code == .unreadable)
        #expect(
            try await refusal(on: provider, Data(#"{"rawValue":17}"#.utf8), source: .okta(tokenID: "t"))?.code
                == .unreadable)
        #expect(
            try await refusal(
                on: provider, Data("access_token=a&access_token=b".utf8), source: .gtmAppAuth(itemName: "g"))?.code
                == .unreadable)
    }

    @Test func severalOktaTokensMustBeNamedAndAnExpiredItemIsDropped() async throws {
        let grant = try await Self.grant()
        defer { grant.provider.stop() }
        let legacy = InMemoryStore()
        for id in ["one", "two"] {
            try await legacy.save(Data("{}".utf8), service: SessionMigration.oktaTokens, account: id)
        }
        let client = try Self.client(grant.provider, store: InMemoryStore())
        let error = await #expect(throws: MigrationError.self) {
            try await client.migrateSession(SessionMigration(from: .okta(), in: legacy, earlierVersionRan: nil))
        }
        #expect(error?.code == .ambiguous)
        // An access token that expired with no refresh token can never sign anyone in: the item goes.
        let expired = Self.auth0Archive(access: "a", refresh: nil, id: nil, expires: Date().addingTimeInterval(-1))
        try await legacy.save(expired, service: "s", account: "a")
        guard
            case .nothingToMigrate = try await client.migrateSession(
                SessionMigration(from: .auth0(service: "s", account: "a"), in: legacy, earlierVersionRan: nil))
        else {
            Issue.record("an expired item without a refresh token must be dropped")
            return
        }
        #expect(try await legacy.load(service: "s", account: "a") == nil)
        guard
            case .nothingToMigrate = try await client.migrateSession(
                SessionMigration(from: .auth0(service: "s", account: "a"), in: legacy, earlierVersionRan: nil))
        else {
            Issue.record("no item: nothing to migrate")
            return
        }
    }

    /// Megabyte inputs straight into each reader: a typed refusal, never a crash or a hang.
    @Test func megabyteInputsAreRefusedByEveryReader() {
        let noise = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let bplist = Data("bplist00".utf8) + noise
        let deep = Data((String(repeating: "[", count: 1 << 20)).utf8)
        for data in [noise, bplist, deep] {
            #expect(throws: MigrationError(.unreadable)) { try LegacyCredentials.auth0(data) }
            #expect(throws: MigrationError(.unreadable)) { try LegacyCredentials.appAuth(data) }
            #expect(throws: MigrationError(.unreadable)) { try LegacyCredentials.gtmAppAuth(data) }
            #expect(throws: MigrationError(.unreadable)) { try LegacyCredentials.okta(data) }
            #expect(throws: MigrationError(.unreadable)) { try LegacyCredentials.tokenResponseJSON(data) }
        }
    }

    /// An empty access token is stored only beside a refresh token, and is never handed out.
    @Test func anEmptyAccessTokenNeedsARefreshToken() throws {
        let refreshOnly = TokenSet(
            accessToken: "", refreshToken: "r", idToken: nil, expiresAt: .distantPast, scope: nil, issuer: "https://i")
        #expect(try TokenSet(encoded: refreshOnly.encoded()).refreshToken?.unredacted() == "r")
        #expect(!SessionStateMachine<Int>.satisfies(refreshOnly, .validFor(0), now: Date()))
        var noExpiry = refreshOnly
        noExpiry.expiresAt = nil
        #expect(!SessionStateMachine<Int>.satisfies(noExpiry, .validFor(0), now: Date()), "never sent, expiry or not")
        let empty = TokenSet(
            accessToken: "", refreshToken: nil, idToken: nil, expiresAt: nil, scope: nil, issuer: "https://i")
        #expect(throws: StorageError(.corruptedData)) { try TokenSet(encoded: empty.encoded()) }
    }

    /// The reader against Foundation's own archiver (the outside reference): what `NSKeyedArchiver` writes — inline
    /// and mutable strings, `NSDate`, `NSURL`, a nested object, nil — reads back as written.
    @Test func theReaderReadsWhatFoundationsArchiverWrites() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: ArchivedByFoundation(), requiringSecureCoding: true)
        let archive = try LegacyArchive(data)
        let root = try archive.root([NSStringFromClass(ArchivedByFoundation.self)])
        #expect(archive.string("accessToken", of: root) == "at-Ünïcode")
        #expect(archive.string("mutable", of: root) == "mutable value")
        #expect(archive.string("absent", of: root) == nil && archive.contains("absent", in: root))
        #expect(archive.date("expiresIn", of: root) == Date(timeIntervalSinceReferenceDate: 721_692_800.5))
        #expect(archive.url("issuer", of: root)?.absoluteString == "https://issuer.example/tenant")
        let nested = try #require(archive.object("nested", of: root, [NSStringFromClass(ArchivedByFoundation.self)]))
        #expect(archive.string("accessToken", of: nested) == "inner")
        #expect(archive.object("nested", of: root, ["SomethingElse"]) == nil, "another class is not read")
        #expect(throws: MigrationError(.unreadable)) { try archive.root(["A0Credentials"]) }
    }

    /// The writer's archives are what Foundation reads: the plist layer parses as a `bplist00` with the archive keys.
    @Test func theTestArchiveWriterWritesWhatFoundationReads() throws {
        let data = Self.auth0Archive(access: "a", refresh: nil, id: "i", expires: Date(timeIntervalSince1970: 0))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["$archiver"] as? String == "NSKeyedArchiver")
        #expect((plist["$objects"] as? [Any])?.first as? String == "$null")
        let read = try LegacyCredentials.auth0(data)
        #expect(read.accessToken == "a" && read.refreshToken == nil && read.idToken == "i")
        #expect(read.expiresAt == Date(timeIntervalSince1970: 0))
    }
}

/// An object archived by Foundation's `NSKeyedArchiver` for the reader's outside-reference test.
final class ArchivedByFoundation: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let inner: Bool

    init(inner: Bool = false) { self.inner = inner }
    init?(coder: NSCoder) { inner = true }

    func encode(with coder: NSCoder) {
        guard !inner else {
            coder.encode("inner" as NSString, forKey: "accessToken")
            return
        }
        coder.encode("at-Ünïcode" as NSString, forKey: "accessToken")
        coder.encode(NSMutableString(string: "mutable value"), forKey: "mutable")
        coder.encode(nil as NSString?, forKey: "absent")
        coder.encode(Date(timeIntervalSinceReferenceDate: 721_692_800.5) as NSDate, forKey: "expiresIn")
        coder.encode(NSURL(string: "https://issuer.example/tenant")!, forKey: "issuer")
        coder.encode(ArchivedByFoundation(inner: true), forKey: "nested")
    }
}
