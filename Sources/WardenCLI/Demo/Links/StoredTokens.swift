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
    /// 3. The session is stored: one versioned item for access, refresh and ID token, read back intact.
    enum StoredTokens: DemoLink {
        static let step: String? = nil

        static func links(in world: DemoWorld) async -> [Link] {
            let (store, service, account, tokens, storeName) = (
                world.store, world.service, world.account, world.tokens, world.storeName
            )
            var links: [Link] = []
            do {
                let stored = try await store.load(service: service, account: account).map { data throws(StorageError) in
                    try TokenSet(encoded: data)
                }
                links.append(
                    Link(
                        name: "tokens stored", ok: stored?.refreshToken == tokens.refreshToken,
                        evidence: "\(storeName); one versioned item for access+refresh+ID token, read back intact"))
            } catch {
                links.append(Link(name: "tokens stored", ok: false, evidence: "\(storeName): \(error)"))
            }
            return links
        }
    }
}
