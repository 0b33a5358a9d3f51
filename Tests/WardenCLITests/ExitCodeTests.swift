import Foundation
import Testing
import WardenLocalProvider

/// The exit-code contract (README, "The `warden` CLI"): 0 success, 1 rejected, 2 a wrong invocation, 75 a transient
/// failure a script retries — observed from the command, one case per kind.
@Suite("Exit codes", .serialized)
struct ExitCodeTests {
    static let token = "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsifQ.eyJleHAiOjF9.AAAA"

    @Test func versionIsZero() async {
        let run = await CLI.run(["--version"])
        #expect(run.status == 0 && run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    /// A key set that cannot be fetched now decides nothing about the token: 75. One that the server refuses to give
    /// (404) is a verdict: 1.
    @Test func aKeySetOutOfReachIsTransient() async throws {
        let provider = try LocalProvider(clientID: "app")
        defer { provider.stop() }
        let notFound = await CLI.run([
            "jwt", "verify", "--aud", "app", "--jwks", provider.base + "/missing", Self.token,
        ])
        #expect(notFound.status == 1 && notFound.stderr.contains("key_set_unavailable"), "\(notFound.stderr)")
        provider.outage = .unavailable(retryAfter: 5)
        let unavailable = await CLI.run([
            "jwt", "verify", "--aud", "app", "--jwks", provider.base + "/jwks", Self.token,
        ])
        #expect(unavailable.status == 75, "\(unavailable.stderr)")
        provider.outage = .connectionRefused
        let offline = await CLI.run(["jwt", "verify", "--aud", "app", "--jwks", provider.base + "/jwks", Self.token])
        #expect(offline.status == 75 && offline.stderr.contains("cannot fetch the JWKS"), "\(offline.stderr)")
        provider.outage = .none
        let rejected = await CLI.run(["jwt", "verify", "--aud", "app", "--jwks", provider.base + "/jwks", Self.token])
        #expect(rejected.status == 1, "a token no published key signed: \(rejected.stderr)")
    }

    /// An IPv6 issuer used to crash discovery (a force-unwrapped URL built from `URL.host`, which drops the brackets):
    /// now a closed port is a transient failure like any other.
    @Test func anIPv6IssuerIsAnIssuerLikeAnyOther() async {
        let run = await CLI.run(["discover", "https://[::1]:1/x"])
        #expect(run.status == 75, "\(run.stderr)")
    }

    /// The Keychain store exists on Apple platforms only; asking for it elsewhere is a wrong invocation.
    @Test func aStoreThePlatformLacksIsUsage() async {
        #if os(Linux)
            let run = await CLI.run(["token", "--store", "keychain"])
            #expect(run.status == 2 && run.stderr.contains("Apple platforms only"), "\(run.stderr)")
        #endif
        let unknown = await CLI.run(["token", "--store", "vault"])
        #expect(unknown.status == 2 && unknown.stderr.contains("keychain, secret-service, memory, file"))
    }
}
