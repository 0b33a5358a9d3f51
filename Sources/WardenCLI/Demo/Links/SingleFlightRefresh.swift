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
    /// 4. 50 concurrent API calls with an expired token: exactly one refresh, rotated and persisted.
    enum SingleFlightRefresh: DemoLink {
        static let step: String? = "50 concurrent API calls with an expired access token"

        static func links(in world: DemoWorld) async -> [Link] {
            let (provider, session, store, transport, service, account, ledger, api) = (
                world.provider, world.session, world.store, world.transport, world.service, world.account, world.ledger,
                world.api
            )
            var links: [Link] = []
            // 4. 50 concurrent API calls with an expired token → exactly one refresh, rotated and persisted.
            provider.expireAccessTokens()
            let oldRefresh = await session.currentTokens?.refreshToken?.unredacted()
            let refreshesBefore = provider.count("token.refresh_token")
            let authorized = AuthorizedClient(
                session: session, transport: transport, retryPolicy: RetryPolicy(maximumAttempts: 1))
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { (try? await authorized.send(HTTPRequest(url: api)))?.status ?? -1 } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let refreshes = provider.count("token.refresh_token") - refreshesBefore
            let newTokens = await session.currentTokens
            ledger.add(newTokens?.accessToken.unredacted(), newTokens?.refreshToken?.unredacted())
            let persisted = try? await store.load(service: service, account: account).map { data throws(StorageError) in
                try TokenSet(encoded: data)
            }
            let rotated =
                newTokens?.refreshToken?.unredacted() != oldRefresh
                && persisted?.refreshToken == newTokens?.refreshToken
            links.append(
                Link(
                    name: "single-flight refresh, rotation persisted",
                    ok: refreshes == 1 && statuses.allSatisfy { $0 == 200 } && rotated,
                    evidence:
                        "50 calls → \(statuses.filter { $0 == 200 }.count)×200; the provider saw \(refreshes) refresh request(s); refresh token rotated and the new one stored before callers resumed"
                ))
            return links
        }
    }
}
