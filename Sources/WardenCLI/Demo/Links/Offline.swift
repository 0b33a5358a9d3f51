import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

extension DemoCommand {
    /// 5. The provider offline: the session is kept and read-only; back online it recovers after its backoff.
    enum Offline: DemoLink {
        static let step: String? = "provider offline, then back"

        static func links(in world: DemoWorld) async -> [Link] {
            let (provider, session, store, transport, service, account, ledger, api, demoClock) = (
                world.provider, world.session, world.store, world.transport, world.service, world.account, world.ledger,
                world.api, world.demoClock
            )
            var links: [Link] = []
            // 5. Provider offline → session kept, read-only; back online → recovers.
            provider.outage = .connectionRefused
            provider.expireAccessTokens()
            let sleeper = RecordingClock()
            let offlineClient = AuthorizedClient(
                session: session, transport: transport,
                retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(200), jitter: { 0.5 }),
                clock: sleeper, minimumTTL: 1e9)
            let offlineError = await { () -> String in
                do {
                    _ = try await offlineClient.send(HTTPRequest(url: api))
                    return "no error"
                } catch { return (error as? any WardenError)?.codeName ?? "error" }
            }()
            let degradedState = await session.state
            let keptWhileOffline = (try? await store.load(service: service, account: account)) != nil
            provider.outage = .none
            // Back online, but the session does not hammer: no refresh before its jittered backoff ends.
            let refreshesWhileBackingOff = provider.count("token.refresh_token")
            var backoff = "none"
            do { _ = try await session.validAccessToken(minTTL: 1e9) } catch {
                if let retryAt = error.retryAt {
                    backoff = String(format: "%.2f s", retryAt.timeIntervalSince(demoClock.current))
                    demoClock.advance(to: retryAt)
                }
            }
            let heldBack = provider.count("token.refresh_token") == refreshesWhileBackingOff
            let recovered = (try? await session.validAccessToken(minTTL: 1e9)) != nil
            let stateAfter = await session.state
            ledger.add(
                await session.currentTokens?.accessToken.unredacted(),
                await session.currentTokens?.refreshToken?.unredacted())
            let transportClient = AuthorizedClient(
                session: session, transport: RefusingTransport(),
                retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(200), jitter: { 0.5 }),
                clock: sleeper)
            _ = try? await transportClient.send(HTTPRequest(url: api))
            let offlineAPIState = await session.state
            let onlineAgain =
                (try? await AuthorizedClient(session: session, transport: transport).send(HTTPRequest(url: api)))?
                .status
            let afterOnline = await session.state
            links.append(
                Link(
                    name: "offline keeps the session",
                    ok: offlineError == "degraded" && !degradedState.canMutate && keptWhileOffline && recovered
                        && stateAfter == .signedIn && heldBack && backoff != "none"
                        && sleeper.slept.count == 2,
                    evidence:
                        "refresh while the port was closed → \(offlineError); state \(describe(degradedState)), canMutate=\(degradedState.canMutate), tokens kept in the store; API retries backed off \(sleeper.slept.map { "\($0)" }.joined(separator: ", ")); back online: no refresh during the \(backoff) jittered backoff, then → \(describe(stateAfter))"
                ))

            links.append(
                Link(
                    name: "an offline API call makes the session read-only",
                    ok: !offlineAPIState.canMutate && offlineAPIState != .signedIn && onlineAgain == 200
                        && afterOnline == .signedIn,
                    evidence:
                        "API call with the network down (connection refused, after 3 attempts) → state \(describe(offlineAPIState)), canMutate=\(offlineAPIState.canMutate), session kept; the next request got \(onlineAgain.map(String.init) ?? "nothing") → \(describe(afterOnline))"
                ))
            return links
        }
    }
}
