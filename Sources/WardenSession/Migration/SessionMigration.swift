import Foundation
import WardenCore
import WardenJOSE
import WardenStorage

/// Why a migration refused what another SDK had stored.
public typealias MigrationError = CodedFailure<MigrationErrorDomain>

/// The codes of ``MigrationError`` and how an app reacts to each: a refused item is left where it was (the user signs
/// in again; once signed in, the next ``AuthClient/migrateSession(_:)`` deletes it), a store that cannot be read now
/// is tried again at the next launch.
public enum MigrationErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code.backing {
        case .storeUnavailable: .transient
        case .storeFailed, .ambiguous: .misconfiguration
        case .unreadable, .notSignedIn, .invalidToken, .issuerMismatch, .clientMismatch, .invalidIDToken,
            .senderConstrained:
            .rejected
        }
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case unreadable, ambiguous
            case notSignedIn = "not_signed_in"
            case invalidToken = "invalid_token"
            case issuerMismatch = "issuer_mismatch"
            case clientMismatch = "client_mismatch"
            case invalidIDToken = "invalid_id_token"
            case senderConstrained = "sender_constrained"
            case storeUnavailable = "store_unavailable"
            case storeFailed = "store_failed"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// The item is not in the format its SDK writes (not a keyed archive of the expected class, not JSON, damaged).
        public static let unreadable = Code(.unreadable)
        /// Several tokens are stored (okta-mobile-swift keeps one per credential): name the one to migrate.
        public static let ambiguous = Code(.ambiguous)
        /// The other SDK's state says it is not signed in (AppAuth's `authorizationError`).
        public static let notSignedIn = Code(.notSignedIn)
        /// A token is empty, longer than 16 KiB, or has characters no token has (RFC 6749 Appendix A: VSCHAR).
        public static let invalidToken = Code(.invalidToken)
        /// The stored issuer, or the ID token's `iss`, is not the configured provider's.
        public static let issuerMismatch = Code(.issuerMismatch)
        /// The tokens were issued to another client (the stored `client_id`, or the ID token's `aud`).
        public static let clientMismatch = Code(.clientMismatch)
        /// The stored ID token is not a JWS with a JSON payload.
        public static let invalidIDToken = Code(.invalidIDToken)
        /// The tokens are bound to the other SDK's DPoP key (`token_type` DPoP), which Warden cannot use.
        public static let senderConstrained = Code(.senderConstrained)
        /// A store cannot be read or written right now (the device is locked): try at the next launch.
        public static let storeUnavailable = Code(.storeUnavailable)
        /// A store refused the operation (a missing entitlement, an invalid name).
        public static let storeFailed = Code(.storeFailed)
    }
}

/// Moves a user whom another SDK signed in into Warden, once, without signing them out: reads that SDK's stored
/// credentials from their documented or source-defined format, checks them against the configuration, stores them as
/// a Warden session, and deletes the old item only after the new one is stored.
///
/// ```swift
/// let migration = SessionMigration(
///     from: .auth0(service: Bundle.main.bundleIdentifier!), in: KeychainStore(),
///     earlierVersionRan: { UserDefaults.standard.object(forKey: "onboardingDone") != nil })
/// switch try await client.migrateSession(migration) {
/// case .migrated(let session), .alreadyMigrated(let session?): show(session)
/// default: break  // nothing to move: restoreSession() as usual
/// }
/// ```
///
/// Safe to interrupt at any step: until Warden's item is written nothing changed; once it is, Warden's copy is the
/// only live one — a migration that finds it never imports again (a refreshed, rotated grant is never overwritten by
/// the old item) and only deletes the old item.
public struct SessionMigration: Sendable {
    /// Where the other SDK kept the signed-in user, and in which format.
    public enum Source: Sendable, CustomStringConvertible {
        /// Auth0.swift's `CredentialsManager` with its default `SimpleKeychain`: a generic password of `service` (the
        /// app's bundle identifier unless the app set another) and `account` (the `storeKey`, "credentials"), holding
        /// an `A0Credentials` keyed archive (Auth0.swift 1.x–3.x).
        case auth0(service: String, account: String = "credentials")
        /// AppAuth-iOS: an `OIDAuthState` keyed archive an app kept in the Keychain item `service`/`account`.
        case appAuth(service: String, account: String)
        /// GTMAppAuth 1.x–5.x (and GoogleSignIn, whose item name is "auth"): account "OAuth", service the item name,
        /// holding a `GTMAppAuthFetcherAuthorization` keyed archive or the older GTMOAuth2 string.
        case gtmAppAuth(itemName: String)
        /// okta-mobile-swift (AuthFoundation 1.x and 2.x): the `Token` JSON of service
        /// `com.okta.authfoundation.keychain.storage`; `tokenID` names one when several are stored (nil: the only one).
        case okta(tokenID: String? = nil)
        /// An app's own item holding a token response as JSON (`access_token`, `refresh_token`, `id_token`, `scope`).
        case tokenResponseJSON(service: String, account: String)
        /// An app's own item holding a refresh token alone (UTF-8).
        case refreshToken(service: String, account: String)

        public var description: String {
            switch self {
            case .auth0: "Auth0.swift"
            case .appAuth: "AppAuth"
            case .gtmAppAuth: "GTMAppAuth"
            case .okta: "okta-mobile-swift"
            case .tokenResponseJSON: "a token-response item"
            case .refreshToken: "a refresh-token item"
            }
        }
    }

    /// What a migration did.
    public enum Outcome: Sendable {
        /// The other SDK's user is now Warden's session; the old item is deleted.
        case migrated(AuthSession)
        /// Warden already holds a session (an earlier migration, interrupted or not, or a sign-in): nothing was
        /// imported; an old item left behind was deleted. The session, when the store returns it.
        case alreadyMigrated(AuthSession?)
        /// No old item (the user was not signed in), or one with nothing usable left (an expired access token and no
        /// refresh token), which was deleted.
        case nothingToMigrate
        /// The install check found a previous install's items (the app was deleted and installed again): they were
        /// purged, the old SDK's included; nothing was imported.
        case purgedPreviousInstall
        /// The install check cannot trust a missing marker right now (prewarming, a locked store): nothing was
        /// touched; migrate at the next launch.
        case deferred(String)
    }

    /// The old SDK's item.
    public let source: Source
    /// The store that holds it: `KeychainStore()` on Apple platforms (generic passwords, the app's default access
    /// group, or the shared one the other SDK used), any ``CredentialStore`` in tests.
    public let legacyStore: any CredentialStore
    /// Whether an earlier version of the app ran in this install (an app update, not a reinstall), for an app whose
    /// configuration adopts ``InstallSentinel`` with this release: its marker is missing at the first launch after
    /// the update as after a reinstall, and only this tells them apart. Give evidence the earlier version left in the
    /// app's container, which a reinstall deletes (a `UserDefaults` key it always wrote, a file); nil when the
    /// configuration has no sentinel, or when the earlier version already used Warden's.
    public let earlierVersionRan: (@Sendable () -> Bool)?

    /// A migration of the `source` item held in `legacyStore`, with the reinstall evidence
    /// ``earlierVersionRan`` describes.
    public init(from source: Source, in legacyStore: any CredentialStore, earlierVersionRan: (@Sendable () -> Bool)?) {
        self.source = source
        self.legacyStore = legacyStore
        self.earlierVersionRan = earlierVersionRan
    }

    static let oktaTokens = "com.okta.authfoundation.keychain.storage"
    static let oktaMetadata = "com.okta.authfoundation.keychain.metadata"

    /// The old item's place (service, account) and the items that go with it, or nil when nothing is stored.
    func items() async throws(MigrationError) -> (main: (String, String), all: [(String, String)])? {
        switch source {
        case .auth0(let service, let account), .appAuth(let service, let account),
            .tokenResponseJSON(let service, let account), .refreshToken(let service, let account):
            return ((service, account), [(service, account)])
        case .gtmAppAuth(let itemName):
            return ((itemName, "OAuth"), [(itemName, "OAuth")])
        case .okta(let tokenID):
            let id: String
            if let tokenID {
                id = tokenID
            } else {
                let ids = try await Self.storage { () async throws(StorageError) in
                    try await legacyStore.accounts(service: Self.oktaTokens)
                }
                guard ids.count <= 1 else {
                    throw MigrationError(
                        .ambiguous, "\(ids.count) Okta tokens are stored; name the one to migrate (tokenID)")
                }
                guard let only = ids.first else { return nil }
                id = only
            }
            return ((Self.oktaTokens, id), [(Self.oktaTokens, id), (Self.oktaMetadata, id)])
        }
    }

    /// Deletes every item of the old SDK this source names (every Okta token and its metadata): a previous install's.
    func purgeEveryItem() async throws(StorageError) {
        switch source {
        case .okta:
            for service in [Self.oktaTokens, Self.oktaMetadata] {
                for account in try await legacyStore.accounts(service: service) {
                    try await legacyStore.delete(service: service, account: account)
                }
            }
        case .auth0(let service, let account), .appAuth(let service, let account),
            .tokenResponseJSON(let service, let account), .refreshToken(let service, let account):
            try await legacyStore.delete(service: service, account: account)
        case .gtmAppAuth(let itemName):
            try await legacyStore.delete(service: itemName, account: "OAuth")
        }
    }

    /// Reads the old item in its SDK's format.
    func decode(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        switch source {
        case .auth0: try .auth0(data)
        case .appAuth: try .appAuth(data)
        case .gtmAppAuth: try .gtmAppAuth(data)
        case .okta: try .okta(data)
        case .tokenResponseJSON: try .tokenResponseJSON(data)
        case .refreshToken: try .refreshToken(data)
        }
    }

    /// Runs a store operation, its error as a migration error (transient failures stay transient).
    static func storage<T>(_ operation: () async throws(StorageError) -> T) async throws(MigrationError) -> T {
        do { return try await operation() } catch {
            throw MigrationError(
                error.failureKind == .transient ? .storeUnavailable : .storeFailed,
                "the store failed (\(error.code)): \(error.reason)")
        }
    }
}

extension AuthClient {
    /// Moves the user another SDK signed in into this client's store, once (see ``SessionMigration``): call it at
    /// launch instead of ``restoreSession()`` until every user has updated. Needs no network.
    ///
    /// In order: the install check of the configuration's ``Configuration/sentinel`` (a reinstall purges the old
    /// item too; an update — ``SessionMigration/earlierVersionRan`` — keeps it); a session Warden already holds wins
    /// (the old item is deleted); the old item is read, checked — its tokens' form, the issuer and client it names,
    /// its ID token's `iss` and `aud` (its signature was that SDK's to check at sign-in; Warden checks every later
    /// one) — stored, and only then deleted.
    public func migrateSession(_ migration: SessionMigration) async throws(MigrationError)
        -> SessionMigration.Outcome
    {
        // One run at a time per client: two scenes migrating at once must not both find the store empty and save, the
        // second over a grant the first already refreshed. A call during a run shares its outcome.
        if let running = migrationRun { return try await Self.outcome(of: running) }
        let run = Task { () async throws -> SessionMigration.Outcome in try await self.migrateOnce(migration) }
        migrationRun = run
        defer { migrationRun = nil }
        return try await Self.outcome(of: run)
    }

    private static func outcome(of run: Task<SessionMigration.Outcome, any Error>) async throws(MigrationError)
        -> SessionMigration.Outcome
    {
        do { return try await run.value } catch let error as MigrationError { throw error } catch {
            throw MigrationError(.storeFailed, "the migration failed")
        }
    }

    private func migrateOnce(_ migration: SessionMigration) async throws(MigrationError) -> SessionMigration.Outcome {
        let configuration = configuration
        let store = configuration.store
        if let sentinel = configuration.sentinel {
            // The old SDK's items go with Warden's before the marker is written: a kill in between purges again at
            // the next launch, never imports a previous install's item.
            let legacy = migration
            let result = try await SessionMigration.storage { () async throws(StorageError) in
                try await sentinel.purgeIfFirstLaunch(
                    store: store.records,
                    services: [configuration.service, PendingRevocations.service(for: configuration.service)],
                    earlierVersionRan: migration.earlierVersionRan,
                    alsoPurge: { () async throws(StorageError) in try await legacy.purgeEveryItem() })
            }
            switch result {
            case .purged: return .purgedPreviousInstall
            case .deferred(let reason): return .deferred(reason)
            case .alreadyInstalled, .migrated, .adopted: break
            }
        }
        let items = try await migration.items()
        if try await holdsSession() {
            try await delete(items?.all ?? [], from: migration.legacyStore)
            return .alreadyMigrated(try await restored())
        }
        guard let items else { return .nothingToMigrate }
        let stored = try await SessionMigration.storage { () async throws(StorageError) in
            try await migration.legacyStore.load(service: items.main.0, account: items.main.1)
        }
        guard let stored else { return .nothingToMigrate }
        guard let tokens = try migratedTokens(migration.decode(stored), source: migration.source) else {
            try await delete(items.all, from: migration.legacyStore)
            return .nothingToMigrate
        }
        // Checked again just before the write: a sign-in that finished meanwhile wins over the old item.
        if try await holdsSession() {
            try await delete(items.all, from: migration.legacyStore)
            return .alreadyMigrated(try await restored())
        }
        try await SessionMigration.storage { () async throws(StorageError) in
            try await store.saveTokens(tokens, service: configuration.service, account: configuration.account)
        }
        WardenLogger(category: "migration").notice("moved the signed-in user from \(migration.source) into Warden")
        try await delete(items.all, from: migration.legacyStore)
        guard let session = try await restored() else {
            throw MigrationError(.storeFailed, "the migrated session was stored but does not read back")
        }
        return .migrated(session)
    }

    /// Whether Warden's store holds the configured account's session.
    private func holdsSession() async throws(MigrationError) -> Bool {
        let configuration = configuration
        return try await SessionMigration.storage { () async throws(StorageError) in
            try await configuration.store.loadTokens(service: configuration.service, account: configuration.account)
        } != nil
    }

    private func restored() async throws(MigrationError) -> AuthSession? {
        do { return try await restoreSession() } catch {
            throw MigrationError(
                error.failureKind == .transient ? .storeUnavailable : .storeFailed,
                "the store failed (\(error.code)): \(error.reason)")
        }
    }

    private func delete(_ items: [(String, String)], from store: any CredentialStore) async throws(MigrationError) {
        for (service, account) in items {
            try await SessionMigration.storage { () async throws(StorageError) in
                try await store.delete(service: service, account: account)
            }
        }
    }

    /// The Warden token set of `legacy` after every check, or nil when nothing usable is left.
    func migratedTokens(_ legacy: LegacyCredentials, source: SessionMigration.Source) throws(MigrationError)
        -> TokenSet?
    {
        if legacy.tokenType?.lowercased() == "dpop" {
            throw MigrationError(.senderConstrained, "\(source)'s tokens are bound to its own DPoP key")
        }
        let accessToken = try Self.checkedToken(legacy.accessToken, "access token")
        let refreshToken = try Self.checkedToken(legacy.refreshToken, "refresh token")
        let idToken = try Self.checkedToken(legacy.idToken, "ID token")
        let now = configuration.now()
        let accessServes = accessToken != nil && (legacy.expiresAt.map { $0 > now } ?? true)
        guard refreshToken != nil || accessServes else { return nil }
        if let clientID = legacy.clientID, clientID != configuration.clientID {
            throw MigrationError(.clientMismatch, "\(source)'s tokens were issued to another client")
        }
        var issuer = try expectedIssuer(legacy.issuer, source: source)
        if let idToken {
            let claims: JWTClaims
            do {
                guard let payload = try JWSCompact.decodeUnverified(idToken).payload?.objectValue else {
                    throw MigrationError(.invalidIDToken, "\(source)'s ID token has no JSON payload")
                }
                claims = JWTClaims(object: payload)
                guard let named = try claims.issuer else {
                    throw MigrationError(.invalidIDToken, "\(source)'s ID token names no issuer")
                }
                if let recorded = legacy.issuer, recorded != named {
                    throw MigrationError(.issuerMismatch, "\(source)'s recorded issuer and its ID token's differ")
                }
                issuer = try expectedIssuer(named, source: source)
            } catch let error as MigrationError {
                throw error
            } catch {
                throw MigrationError(.invalidIDToken, "\(source)'s ID token is not a JWS")
            }
            guard (try? claims.audience)?.contains(configuration.clientID) == true else {
                throw MigrationError(.clientMismatch, "\(source)'s ID token was issued to another client")
            }
        }
        guard let issuer else {
            throw MigrationError(.issuerMismatch, "a tenant issuer needs the stored ID token to name the tenant")
        }
        return TokenSet(
            accessToken: accessServes ? accessToken ?? "" : accessToken ?? "", refreshToken: refreshToken,
            idToken: idToken, expiresAt: accessToken == nil ? .distantPast : legacy.expiresAt,
            scope: legacy.scope, issuer: issuer)
    }

    /// The issuer the session is stored under: the configured one, which `named` (what the old SDK recorded) must
    /// be; with a tenant template, the tenant's issuer `named` fills it with (nil while nothing names the tenant).
    private func expectedIssuer(_ named: String?, source: SessionMigration.Source) throws(MigrationError) -> String? {
        let configured: String =
            switch configuration.provider {
            case .issuer(let issuer): issuer
            case .metadata(let metadata): metadata.issuer
            }
        if let template = configuration.issuerTemplate {
            guard let named else { return nil }
            guard template.tenant(in: named) != nil else {
                throw MigrationError(.issuerMismatch, "\(source)'s issuer is not a tenant of the configured template")
            }
            return named
        }
        if let named, named != configured {
            throw MigrationError(.issuerMismatch, "\(source)'s issuer is not the configured provider")
        }
        return configured
    }

    /// A stored token as Warden keeps it: nil when absent or empty; refused beyond 16 KiB or with a character
    /// outside RFC 6749's VSCHAR (%x20-7E).
    static func checkedToken(_ token: String?, _ name: String) throws(MigrationError) -> String? {
        guard let token, !token.isEmpty else { return nil }
        guard token.utf8.count <= 16 * 1024 else {
            throw MigrationError(.invalidToken, "the stored \(name) is longer than 16 KiB")
        }
        guard token.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw MigrationError(.invalidToken, "the stored \(name) has characters a token cannot have")
        }
        return token
    }
}

extension SessionMigration {
    /// Every reader of another SDK's item over `data`, with the token checks a migration applies (fuzzing): each
    /// returns credentials or a typed refusal. Returns how many accepted.
    @_spi(Fuzzing) public static func readEveryFormat(_ data: Data) -> Int {
        var accepted = 0
        for format in 0..<6 {
            let read: LegacyCredentials?
            switch format {
            case 0: read = try? LegacyCredentials.auth0(data)
            case 1: read = try? LegacyCredentials.appAuth(data)
            case 2: read = try? LegacyCredentials.gtmAppAuth(data)
            case 3: read = try? LegacyCredentials.okta(data)
            case 4: read = try? LegacyCredentials.tokenResponseJSON(data)
            default: read = try? LegacyCredentials.refreshToken(data)
            }
            guard let credentials = read else { continue }
            for token in [credentials.accessToken, credentials.refreshToken, credentials.idToken] {
                _ = try? AuthClient.checkedToken(token, "token")
            }
            accepted += 1
        }
        return accepted
    }
}
