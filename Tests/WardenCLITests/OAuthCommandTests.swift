import Foundation
import Testing
import WardenCore
import WardenLocalProvider

@Suite("warden pkce / oauth callback / login / token / logout / demo", .serialized)
struct OAuthCommandTests {
    @Test func pkceRFC7636AppendixB() async throws {
        let run = await CLI.run(["pkce", "--verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"])
        #expect(run.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: String]
        #expect(
            json == [
                "verifier": "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
                "challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "method": "S256",
            ])
        let fresh = await CLI.run(["pkce"])
        #expect(fresh.status == 0 && fresh.stdout.contains("S256"))
        for bad in ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+"] {
            let run = await CLI.run(["pkce", "--verifier", bad])
            #expect(run.status == 2 && run.stderr.hasPrefix("warden: invalid_verifier:"))
        }
    }

    @Test func callbackValidation() async throws {
        let ok = await CLI.run([
            "oauth", "callback", "--redirect-uri", "com.example.app:/cb", "--state", "s1",
            "com.example.app:/cb?code=c1&state=s1",
        ])
        #expect(ok.status == 0 && ok.stdout.contains(#""code" : "c1""#), "\(ok)")
        let cases: [([String], Int32, String)] = [
            (
                ["--redirect-uri", "com.example.app:/cb", "--state", "s1", "com.example.app:/cb?code=c1&state=s2"], 1,
                "state_mismatch"
            ),
            (
                [
                    "--redirect-uri", "com.example.app:/cb", "--state", "s1",
                    "com.example.app:/cb?code=c1&code=c2&state=s1",
                ], 1, "duplicate_parameter"
            ),
            (
                [
                    "--redirect-uri", "com.example.app:/cb", "--state", "s1", "--issuer", "https://id.example.com",
                    "--require-iss", "com.example.app:/cb?code=c1&state=s1",
                ], 1, "missing_issuer"
            ),
            (
                [
                    "--redirect-uri", "com.example.app:/cb", "--state", "s1", "--issuer", "https://id.example.com",
                    "com.example.app:/cb?code=c1&state=s1&iss=https%3A%2F%2Fevil",
                ], 1, "issuer_mismatch"
            ),
            (
                ["--redirect-uri", "com.example.app:/cb", "--state", "s1", "com.evil:/cb?code=c1&state=s1"], 1,
                "redirect_mismatch"
            ),
            (
                ["--redirect-uri", "http://localhost/cb", "--state", "s1", "http://localhost/cb?code=c1&state=s1"], 2,
                "invalid_redirect_uri"
            ),
            (["--state", "s1", "com.example.app:/cb?code=c1&state=s1"], 2, "usage"),
        ]
        for (arguments, status, code) in cases {
            let run = await CLI.run(["oauth", "callback"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("warden: \(code):"), "\(run.stderr)")
        }
    }

    static let fileStore = ["--store", "file", "--insecure-storage", "--account", "alice"]

    /// `warden login` on `provider` into the insecure file store of `home`, with a scripted browser.
    static func login(_ provider: LocalProvider, home: String) async -> CLIRun {
        await CLI.run(
            [
                "login", "--issuer", provider.issuer, "--client-id", provider.clientID, "--browser",
                "curl -s -L -o /dev/null", "--timeout", "20",
            ] + fileStore, home: home)
    }

    @Test func loginTokenLogoutAgainstTheLocalProvider() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = Self.fileStore
        let login = await Self.login(provider, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in as demo-user-1"))
        // Profile and tokens went into the temporary home, nowhere else.
        let profile = home + "/.config/warden/accounts"
        let tokens = home + "/.local/state/warden/insecure-credentials"
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile).count == 1)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: tokens).isEmpty)

        // A second "process" reads the stored session and refreshes it at the provider.
        let refreshesBefore = provider.count("token.refresh_token")
        let token = await CLI.run(["token", "--min-ttl", "86400"] + store, home: home)
        #expect(token.status == 0, "\(token.stderr)")
        #expect(provider.count("token.refresh_token") == refreshesBefore + 1)
        #expect(!token.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        let revocationsBefore = provider.count("revoke")
        let logout = await CLI.run(["logout"] + store, home: home)
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(provider.count("revoke") > revocationsBefore)
        let after = await CLI.run(["token"] + store, home: home)
        #expect(after.status == 1 && after.stderr.hasPrefix("warden: signed_out:"), "\(after.stderr)")
        let left = FileManager.default.enumerator(atPath: tokens)?.compactMap { $0 as? String }.filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: tokens + "/" + $0, isDirectory: &directory)
                && !directory.boolValue
        }
        // The grant lock's lease files stay (deleting a lock file races with its next holder) but are released:
        // empty, and never held a token.
        let leases = left?.filter { $0.hasPrefix(".locks/") && $0.hasSuffix(".lease") } ?? []
        #expect(left.map { Set($0).subtracting(leases) } == [], "no stored token file survives logout")
        for lease in leases {
            #expect(FileManager.default.contents(atPath: tokens + "/" + lease) == Data(), "\(lease) was released")
        }
    }

    @Test func tokenNeedsNoNetworkWhileTheStoredTokenIsValidAndKeepsTheSessionWhenOffline() async throws {
        let provider = try LocalProvider(clientID: "cli-test")
        defer { provider.stop() }
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = Self.fileStore
        let login = await Self.login(provider, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let tokens = home + "/.local/state/warden/insecure-credentials"
        func storedBytes() -> [Data] {
            (FileManager.default.enumerator(atPath: tokens)?.compactMap { $0 as? String } ?? [])
                .filter { !$0.hasPrefix(".locks") }.sorted().compactMap {
                    FileManager.default.contents(atPath: tokens + "/" + $0)
                }
        }
        let before = storedBytes()

        // The provider's port is closed (airplane mode): a valid stored token is printed, discovery never runs.
        provider.outage = .connectionRefused
        let offline = await CLI.run(["token"] + store, home: home)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(!offline.stdout.isEmpty)
        // One that must be refreshed fails transiently, and the session stays.
        let refresh = await CLI.run(["token", "--min-ttl", "86400"] + store, home: home)
        #expect(refresh.status == 75 && refresh.stderr.hasPrefix("warden: degraded:"), "\(refresh.stderr)")
        #expect(storedBytes() == before, "the store is untouched")
        provider.outage = .none
        let back = await CLI.run(["token", "--min-ttl", "86400"] + store, home: home)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(provider.count("token.refresh_token") == 1)

        // logout offline: deleted here, the revocation kept; the next logout sends it.
        provider.outage = .connectionRefused
        let logout = await CLI.run(["logout"] + store, home: home)
        #expect(logout.status == 0 && logout.stdout.contains("the revocation is kept"), "\(logout.stdout)")
        #expect(provider.count("revoke") == 0)
        provider.outage = .none
        let again = await CLI.run(["logout"] + store, home: home)
        #expect(again.stdout.contains("1 earlier revocation(s) sent"), "\(again.stdout)")
        #expect(provider.count("revoke") == 1)
    }

    @Test func demoHoldsEveryLink() async throws {
        let run = await CLI.run(["demo", "--json"])
        #expect(run.status == 0, "\(run.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let links = json["links"] as! [[String: Any]]
        #expect(links.count == 19)
        let names = Set(links.compactMap { $0["name"] as? String })
        for name in [
            "offline cold launch", "two holders of one grant (app + extension)",
            "sign-out offline reports, revokes later",
        ] {
            #expect(names.contains(name), "the demo lacks \(name)")
        }
        #expect(links.allSatisfy { $0["ok"] as? Bool == true }, "\(links.filter { $0["ok"] as? Bool != true })")
    }
}
