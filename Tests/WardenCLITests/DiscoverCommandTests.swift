import Foundation
import Testing
import WardenLocalProvider

/// `warden discover` against the local provider emulating real providers' discovery documents.
@Suite("warden discover", .serialized)
struct DiscoverCommandTests {
    @Test func aMatchingIssuerPassesEveryCheck() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        let run = await CLI.run(["discover", provider.issuer])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        for line in [
            "✔ issuer:", "✔ pkce: S256", "✔ par: available", "✔ dpop: offered", "✔ iss parameter", "✔ end session",
        ] {
            #expect(run.stdout.contains(line), "\(line) in \(run.stdout)")
        }
        let json = await CLI.run(["discover", provider.issuer, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: String]])
        #expect(checks.allSatisfy { $0["status"] != "blocking" })
        #expect((object["metadata"] as? [String: Any])?["issuer"] as? String == provider.issuer)
    }

    /// Auth0 announces its issuer with a trailing slash: configured without it, sign-in would fail.
    @Test func theAuth0SlashIsNamed() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        provider.emulation = .auth0
        let run = await CLI.run(["discover", provider.base])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("✘ issuer:") && run.stdout.contains("trailing slash"), "\(run.stdout)")
        #expect(run.stdout.contains("\"\(provider.issuer)\""))
        #expect(await CLI.run(["discover", provider.issuer]).status == 0)
    }

    /// Entra's multi-tenant discovery announces a `{tenantid}` template that no ID token carries.
    @Test func theEntraTemplateIsNamed() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        provider.emulation = .entra(tenant: "9188040d-6c67-4c5b-b112-36a304b66dad")
        let run = await CLI.run(["discover", provider.base + "/common/v2.0"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"\(provider.base)/{tenantid}/v2.0\""), "\(run.stdout)")
        #expect(run.stdout.contains("tenant template") && run.stdout.contains("entraMultiTenant"), "\(run.stdout)")
        // The tenant's own issuer is what its tokens carry, and passes.
        #expect(await CLI.run(["discover", provider.issuer]).status == 0)
    }

    @Test func googleScopesAreFlaggedAndAnUnreachableProviderIsTransient() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        provider.emulation = .google
        let run = await CLI.run(["discover", provider.issuer])
        #expect(run.status == 0)
        #expect(run.stdout.contains("! scopes: offline_access is not announced"), "\(run.stdout)")
        provider.outage = .connectionRefused
        let offline = await CLI.run(["discover", provider.issuer])
        #expect(offline.status == 75, "\(offline.stderr)")
        let usage = await CLI.run(["discover", "http://id.example.com"])
        #expect(usage.status == 2, "an http issuer off loopback is a configuration error: \(usage.stderr)")
    }
}
