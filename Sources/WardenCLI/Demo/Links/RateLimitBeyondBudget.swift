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
    /// 6b. A Retry-After beyond the caller's budget: fail at once with the time, never retry early.
    enum RateLimitBeyondBudget: DemoLink {
        static let step: String? = "rate limited beyond the budget"

        static func links(in world: DemoWorld) async -> [Link] {
            let (provider, session, transport, api, demoClock) = (
                world.provider, world.session, world.transport, world.api, world.demoClock
            )
            var links: [Link] = []
            // 6b. A Retry-After beyond the caller's budget: fail at once with the time, never retry early.
            let budgetSleeper = RecordingClock()
            provider.outage = .rateLimited(retryAfter: 120)
            let apiCallsBefore = provider.count("api")
            let budgeted = AuthorizedClient(
                session: session, transport: transport, retryPolicy: RetryPolicy(maximumTotalDelay: .seconds(60)),
                clock: budgetSleeper, now: demoClock.now)
            let budgetStart = demoClock.current
            var budgetOutcome = "accepted"
            var retryIn: TimeInterval?
            do { _ = try await budgeted.send(HTTPRequest(url: api)) } catch let error as SessionError {
                budgetOutcome = error.codeName
                retryIn = error.retryAt?.timeIntervalSince(budgetStart)
            } catch { budgetOutcome = (error as? any WardenError)?.codeName ?? "error" }
            let apiCalls = provider.count("api") - apiCallsBefore
            provider.outage = .none
            links.append(
                Link(
                    name: "rate limit beyond the budget is not retried early",
                    ok: budgetOutcome == "rate_limited" && abs((retryIn ?? 0) - 120) < 1
                        && budgetSleeper.slept.isEmpty
                        && apiCalls == 1,
                    evidence:
                        "429 with Retry-After: 120 against a 60 s budget → \(budgetOutcome), retry allowed in \(retryIn.map { "\(Int($0)) s" } ?? "?"); \(apiCalls) request(s) sent, \(budgetSleeper.slept.count) sleeps (no early retry)"
                ))
            return links
        }
    }
}
