import Foundation
import Testing
import WardenLocalProvider
import WardenOAuth

@testable import WardenCLI

/// `warden demo --issuer` runs its attack round against whatever provider it is given; a provider that requires
/// pushed authorization requests must not turn the round into "setup failed" (it only needs a pending state).
@Suite("warden demo: the attack round")
struct DemoAttackRoundTests {
    @Test func theAttackRoundHoldsAgainstAProviderThatRequiresPAR() async throws {
        let provider = try LocalProvider(clientID: "demo-par", redirectURIs: ["http://127.0.0.1/callback"])
        defer { provider.stop() }
        provider.requirePushedAuthorizationRequests = true
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        #expect(metadata.requirePushedAuthorizationRequests)
        let link = await DemoCommand.attacks(
            metadata: metadata, clientID: "demo-par", transport: URLSessionTransport())
        #expect(link.ok, "\(link.evidence)")
        #expect(link.evidence.contains("state_mismatch"), "\(link.evidence)")
    }
}
