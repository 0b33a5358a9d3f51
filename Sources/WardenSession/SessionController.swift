import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth
import WardenStorage

/// The account as a view shows it — the state (with its typed reason), who is signed in, whether a sign-in or
/// sign-out is running — kept current by following the session's own state stream, on the main actor. The logic
/// behind ``ObservableSessionModel`` (`@Observable`) and WardenApple's `SessionModel` (`ObservableObject`), which
/// mirror these properties; usable on its own with ``onChange``.
///
/// ```swift
/// let controller = SessionController(client: client)
/// controller.onChange = { redraw($0.state, $0.claims) }
/// try await controller.restore()                     // at launch, no network
/// try await controller.signIn(with: browser)
/// ```
@MainActor
public final class SessionController {
    /// The client that signs in and restores.
    public let client: AuthClient
    /// The session, while there is one.
    public private(set) var session: AuthSession?
    /// The session's state; `.signedOut(reason: .noSession)` before ``restore()`` and after a sign-out.
    public private(set) var state: SessionState = .signedOut(reason: .noSession)
    /// Who is signed in: the session's ID-token claims (``AuthSession/idTokenClaims``), read again at each change of
    /// state (a refresh that keeps the session signed in changes no state: read ``AuthSession/idTokenClaims`` then).
    public private(set) var claims: JWTClaims?
    /// Whether a restore, sign-in or sign-out is running (disable the buttons that start another).
    public var isWorking: Bool { running > 0 }
    /// How many restores, sign-ins and sign-outs are running.
    private var running = 0
    /// Called on the main actor after any property changed.
    public var onChange: (@MainActor (SessionController) -> Void)?

    private var following: Task<Void, Never>?

    /// A controller over `client`, signed out until ``restore()`` or a sign-in.
    public init(client: AuthClient) { self.client = client }

    deinit { following?.cancel() }

    /// Restores the stored session (``AuthClient/restoreSession()``): no network.
    public func restore() async throws(StorageError) {
        try await working { () async throws(StorageError) in
            do throws(StorageError) { await adopt(try await client.restoreSession()) } catch {
                // A store that cannot answer now (a locked device) is not "signed out": the session may well be there.
                if error.failureKind == .transient, session == nil {
                    state = .degraded(reason: .storeUnavailable(error.code))
                }
                throw error
            }
        }
    }

    /// Moves a user another SDK signed in into Warden, then follows the session (``AuthClient/migrateSession(_:)``).
    @discardableResult
    public func migrate(_ migration: SessionMigration) async throws(MigrationError) -> SessionMigration.Outcome {
        try await working { () async throws(MigrationError) in
            let outcome = try await client.migrateSession(migration)
            switch outcome {
            case .migrated(let migrated): await adopt(migrated)
            case .alreadyMigrated(let restored): await adopt(restored)
            case .nothingToMigrate, .purgedPreviousInstall, .deferred: await adopt(try await restoredAfterMigration())
            }
            return outcome
        }
    }

    private func restoredAfterMigration() async throws(MigrationError) -> AuthSession? {
        do { return try await client.restoreSession() } catch {
            throw MigrationError(
                error.failureKind == .transient ? .storeUnavailable : .storeFailed, "the store failed (\(error.code))")
        }
    }

    /// Signs in through `browser` (``AuthClient/signIn(with:parameters:)``) and follows the new session.
    public func signIn(with browser: any AuthorizationBrowser, parameters: AuthorizationParameters? = nil)
        async throws(OAuthError)
    {
        try await working { () async throws(OAuthError) in
            await adopt(try await client.signIn(with: browser, parameters: parameters).session)
        }
    }

    /// Signs out (``AuthSession/signOut()``); nil when there was no session.
    @discardableResult
    public func signOut() async -> SignOutReport? {
        guard let session else { return nil }
        running += 1
        changed()
        let report = await session.signOut()
        // A sign-in that finished meanwhile is the new session: only the one signed out is let go.
        if self.session === session { await adopt(nil, signedOut: .userSignedOut) }
        running -= 1
        changed()
        return report
    }

    private func working<T, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        running += 1
        changed()
        defer {
            running -= 1
            changed()
        }
        return try await body()
    }

    /// Follows `next` (nil: none): its state stream drives ``state`` and ``claims`` until another replaces it.
    private func adopt(_ next: AuthSession?, signedOut reason: SignedOutReason = .noSession) async {
        following?.cancel()
        following = nil
        session = next
        claims = nil
        guard let next else {
            state = .signedOut(reason: reason)
            changed()
            return
        }
        // The new session's own state and claims at once, not the previous session's until its stream speaks.
        let (current, currentClaims) = (await next.state, await next.idTokenClaims)
        if session === next {
            state = current
            claims = currentClaims
            changed()
        }
        let updates = next.stateUpdates()
        following = Task { [weak self] in
            for await update in updates {
                let claims = await next.idTokenClaims
                guard let self, self.session === next else { return }
                self.state = update
                self.claims = claims
                self.changed()
            }
        }
    }

    private func changed() { onChange?(self) }
}

/// An observable account object over a ``SessionController`` (``ObservableSessionModel``, WardenApple's
/// `SessionModel`): the controller's actions, forwarded once here for every such object.
@MainActor
public protocol SessionControlling: AnyObject {
    /// The controller the object mirrors.
    var controller: SessionController { get }
}

extension SessionControlling {
    /// ``SessionController/restore()``.
    public func restore() async throws(StorageError) { try await controller.restore() }

    /// ``SessionController/migrate(_:)``.
    @discardableResult
    public func migrate(_ migration: SessionMigration) async throws(MigrationError) -> SessionMigration.Outcome {
        try await controller.migrate(migration)
    }

    /// ``SessionController/signIn(with:parameters:)``.
    public func signIn(with browser: any AuthorizationBrowser, parameters: AuthorizationParameters? = nil)
        async throws(OAuthError)
    { try await controller.signIn(with: browser, parameters: parameters) }

    /// ``SessionController/signOut()``.
    @discardableResult
    public func signOut() async -> SignOutReport? { await controller.signOut() }
}
