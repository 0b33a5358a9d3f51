import Foundation
import WardenCore
import WardenLocalProvider
import WardenOAuth
import WardenSession
import WardenStorage
import WardenTestSupport

/// The demo's links for an app's life between sign-ins: an offline cold launch, two holders of one grant, a
/// sign-out made offline. Each runs on its own provider and store; the evidence is what the provider counted and
/// what the store holds.
enum DemoSessionLife {
    struct World {
        let provider: LocalProvider
        let store: InMemoryStore
        let clock: DemoClock
        let service = "dev.warden.demo.life"
        let redirect = "com.example.app:/oauth/callback"

        func client(_ transport: any HTTPTransport) throws -> AuthClient {
            AuthClient(
                .init(
                    issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
                    store: store, service: service, account: "demo-user", transport: transport, now: clock.now))
        }

        func stored() async -> TokenSet? {
            (try? await store.load(service: service, account: "demo-user")).flatMap { $0 }.flatMap {
                try? TokenSet(encoded: $0)
            }
        }
    }

    /// A provider on the demo clock and a stored sign-in.
    static func world(ledger: SecretLedger) async throws -> World {
        let clock = DemoClock()
        let provider = try LocalProvider(
            clientID: "warden-demo", redirectURIs: ["com.example.app:/oauth/callback"], now: clock.now)
        let world = World(provider: provider, store: InMemoryStore(), clock: clock)
        let signIn = try await world.client(URLSessionTransport()).signIn(
            with: ScriptedBrowser(transport: URLSessionTransport()))
        let tokens = await signIn.session.currentTokens
        ledger.add(tokens?.accessToken.unredacted(), tokens?.refreshToken?.unredacted(), tokens?.idToken?.unredacted())
        return world
    }

    static func links(ledger: SecretLedger) async -> [DemoCommand.Link] {
        [
            await link("offline cold launch") { try await offlineColdLaunch(ledger: ledger) },
            await link("two holders of one grant (app + extension)") { try await twoHolders(ledger: ledger) },
            await link("sign-out offline reports, revokes later") { try await offlineSignOut(ledger: ledger) },
        ]
    }

    static func link(_ name: String, _ body: () async throws -> (Bool, String)) async -> DemoCommand.Link {
        do {
            let (ok, evidence) = try await body()
            return DemoCommand.Link(name: name, ok: ok, evidence: evidence)
        } catch {
            return DemoCommand.Link(name: name, ok: false, evidence: "\(error)")
        }
    }

    static func offlineColdLaunch(ledger: SecretLedger) async throws -> (Bool, String) {
        let world = try await world(ledger: ledger)
        defer { world.provider.stop() }
        let before = await world.stored()
        world.provider.outage = .connectionRefused
        let transport = CountingTransport(URLSessionTransport())
        transport.offline.withLock { $0 = true }
        let launch = try world.client(transport)
        guard let session = try await launch.restoreSession() else { return (false, "nothing restored") }
        let served = try await session.validAccessToken()
        let requestsForValid = transport.count
        world.clock.advance(to: Date().addingTimeInterval(3600))  // the access token expired while offline
        var expiredOutcome = "served"
        do { _ = try await session.validAccessToken() } catch { expiredOutcome = error.codeName }
        let offlineState = await session.state
        let storeUntouched = await world.stored() == before
        world.provider.outage = .none
        transport.offline.withLock { $0 = false }
        let refreshesBefore = world.provider.count("token.refresh_token")
        await session.networkBecameAvailable()
        let refreshes = world.provider.count("token.refresh_token") - refreshesBefore
        let after = await world.stored()
        ledger.add(after?.accessToken.unredacted(), after?.refreshToken?.unredacted())
        let backState = await session.state
        let ok =
            served == before?.accessToken.unredacted() && requestsForValid == 0 && expiredOutcome == "degraded"
            && !offlineState.canMutate && storeUntouched && refreshes == 1 && after?.generation == 1
            && backState == .signedIn
        return (
            ok,
            "airplane mode: restore + a valid token sent \(requestsForValid) request(s), token from the store; expired offline → \(expiredOutcome), state \(DemoCommand.describe(offlineState)), store \(storeUntouched ? "untouched" : "CHANGED"); network back → \(refreshes) refresh, store generation \(after.map { "\($0.generation)" } ?? "?"), \(DemoCommand.describe(backState))"
        )
    }

    static func twoHolders(ledger: SecretLedger) async throws -> (Bool, String) {
        let world = try await world(ledger: ledger)
        defer { world.provider.stop() }
        guard let app = try await world.client(URLSessionTransport()).restoreSession(),
            let widget = try await world.client(URLSessionTransport()).restoreSession()
        else { return (false, "nothing restored") }
        world.clock.advance(to: Date().addingTimeInterval(3600))
        let start = world.provider.count("token.refresh_token")
        async let a = app.validAccessToken()
        async let b = widget.validAccessToken()
        let (first, second) = try await (a, b)
        let togetherRefreshes = world.provider.count("token.refresh_token") - start
        // The app refreshes twice more while the extension sleeps, then the extension wakes.
        for _ in 0..<2 {
            world.clock.advance(to: world.clock.current.addingTimeInterval(3600))
            _ = try await app.validAccessToken()
        }
        let beforeWake = world.provider.count("token.refresh_token")
        let woken = try await widget.validAccessToken()
        let wakeRefreshes = world.provider.count("token.refresh_token") - beforeWake
        let api = try world.client(URLSessionTransport()).authorizedClient(for: widget)
        let status = try await api.send(HTTPRequest(url: URL(string: world.provider.issuer + "/api/resource")!)).status
        let stored = await world.stored()
        ledger.add(first, second, woken, stored?.refreshToken?.unredacted())
        let adoptions = await app.adoptionCount + widget.adoptionCount
        let states = [await app.state, await widget.state]
        let ok =
            first == second && togetherRefreshes == 1 && wakeRefreshes == 0 && woken == stored?.accessToken.unredacted()
            && status == 200 && states == [.signedIn, .signedIn]
        return (
            ok,
            "both expired together → the provider saw \(togetherRefreshes) refresh, both got the same token; two app refreshes later the extension woke holding a twice-rotated refresh token → \(wakeRefreshes) refresh, adopted generation \(stored.map { "\($0.generation)" } ?? "?") from the store (\(adoptions) adoptions); its API call → \(status); 0 sign-outs"
        )
    }

    static func offlineSignOut(ledger: SecretLedger) async throws -> (Bool, String) {
        let world = try await world(ledger: ledger)
        defer { world.provider.stop() }
        let transport = CountingTransport(URLSessionTransport())
        guard let session = try await world.client(transport).restoreSession() else {
            return (false, "nothing restored")
        }
        transport.offline.withLock { $0 = true }
        let report = await session.signOut()
        let pendingKept =
            (try? await world.store.load(service: world.service + ".pending-revocation", account: "demo-user")) != nil
        let revokedWhileOffline = world.provider.count("revoke")
        let relaunch = try world.client(URLSessionTransport())
        let restored = try await relaunch.restoreSession()
        let outcomes = await relaunch.retryPendingRevocations()
        let pendingLeft =
            (try? await world.store.load(service: world.service + ".pending-revocation", account: "demo-user"))
            .flatMap { $0 } != nil
        var willRetry = false
        if case .failed(_, willRetry: true) = report.revocation { willRetry = true }
        let ok =
            report.localDataDeleted && willRetry && pendingKept && revokedWhileOffline == 0 && restored == nil
            && world.provider.count("revoke") == 1 && !pendingLeft
        return (
            ok,
            "offline signOut() → local data deleted: \(report.localDataDeleted), revocation failed (will retry: \(willRetry)), kept in the secure store; next launch → \(outcomes.isEmpty ? "revoked by the launch's retry" : outcomes.map { "\($0)" }.joined(separator: ", ")), the provider counted \(world.provider.count("revoke")) revocation, record forgotten: \(!pendingLeft)"
        )
    }
}
