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
    /// 7. The grant revoked at the provider: invalid_grant signs out and purges the store.
    enum RevokedGrant: DemoLink {
        static let step: String? = "grant revoked at the provider"

        static func links(in world: DemoWorld) async -> [Link] {
            let (provider, session, store, service, account) = (
                world.provider, world.session, world.store, world.service, world.account
            )
            var links: [Link] = []
            // 7. Grant revoked at the provider → invalid_grant → signed out, store purged.
            provider.revokeAllGrants()
            provider.expireAccessTokens()
            let revokedError = await { () -> String in
                do {
                    _ = try await session.validAccessToken(minTTL: 1e9)
                    return "no error"
                } catch { return (error as? any WardenError)?.codeName ?? "error" }
            }()
            let afterRevoke = await session.state
            let purged: Bool
            do { purged = try await store.load(service: service, account: account) == nil } catch { purged = false }
            var signedOut = false
            if case .signedOut = afterRevoke { signedOut = true }
            links.append(
                Link(
                    name: "revoked grant signs out", ok: revokedError == "signed_out" && signedOut && purged,
                    evidence:
                        "refresh → invalid_grant → \(revokedError); state \(describe(afterRevoke)); stored items for the account: \(purged ? 0 : 1)"
                ))
            return links
        }
    }
}
