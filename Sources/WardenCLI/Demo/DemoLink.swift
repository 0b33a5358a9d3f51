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

/// One link of the demo's tour (`warden demo`): it runs against the tour's world, after the sign-in, and says with
/// evidence whether it held. Each link is one file in `Links/`; ``DemoCommand/links`` orders them.
protocol DemoLink: Sendable {
    /// What the progress line says while it runs (nil: nothing).
    static var step: String? { get }
    /// The link's results (most links give one).
    static func links(in world: DemoWorld) async -> [DemoCommand.Link]
}

/// What the links share: the embedded provider, the signed-in session and where it is stored, the demo's clock
/// and the ledger of every secret seen (for the last link, "secrets never in logs").
struct DemoWorld: Sendable {
    let provider: LocalProvider
    let transport: any HTTPTransport
    let store: any CredentialStore
    /// The store's name and why it was chosen (the Secret Service, or memory and the reason).
    let storeName: String
    let service: String
    let account: String
    let authClient: AuthClient
    let session: AuthSession
    let metadata: ProviderMetadata
    /// The tokens of the first sign-in.
    let tokens: TokenSet
    let demoClock: DemoClock
    /// The provider's protected resource.
    let api: URL
    let ledger: SecretLedger
}
