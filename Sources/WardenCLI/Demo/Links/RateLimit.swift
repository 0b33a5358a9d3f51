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
    /// 6. 429 with Retry-After: waited exactly, on the injected clock.
    enum RateLimit: DemoLink {
        static let step: String? = "rate limited with Retry-After"

        static func links(in world: DemoWorld) async -> [Link] {
            let (provider, session, transport, api) = (world.provider, world.session, world.transport, world.api)
            var links: [Link] = []
            // 6. 429 with Retry-After.
            let rateSleeper = RecordingClock()
            provider.outage = .rateLimited(retryAfter: 2)
            let limited = AuthorizedClient(session: session, transport: transport, clock: rateSleeper)
            let limitedStatus = (try? await limited.send(HTTPRequest(url: api)))?.status ?? -1
            links.append(
                Link(
                    name: "429 Retry-After honoured",
                    ok: limitedStatus == 200 && rateSleeper.slept == [.seconds(2)],
                    evidence:
                        "429 with Retry-After: 2 → waited \(rateSleeper.slept.map { "\($0)" }.joined(separator: ", ")) (injected clock), then \(limitedStatus)"
                ))
            return links
        }
    }
}
