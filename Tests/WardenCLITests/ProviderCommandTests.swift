import Foundation
import Testing
import WardenCLI
import WardenCore
import WardenLocalProvider

/// `warden provider`: a newcomer runs a provider that behaves like a real one, then `warden discover` and `warden
/// login` against it — Google's missing logout and PAR show in discovery, Entra's multi-tenant issuer signs in with
/// `--issuer-template` and the session is kept under the tenant's issuer.
@Suite("warden provider", .serialized)
struct ProviderCommandTests {
    /// Starts `warden provider ARGS --for 60` in this process and returns its announcement once printed, and the task.
    static func start(_ arguments: [String]) async throws -> ([String: String], Task<Int32, Never>) {
        let printed = Locked("")
        let io = CommandIO(
            writeOut: { text in printed.withLock { $0 += text } }, writeErr: { _ in }, readStdin: { Data() },
            environment: CLI.environment(home: CLI.temporaryHome()))
        let task = Task { await WardenCLI.main(arguments: ["provider"] + arguments + ["--for", "60"], io: io) }
        for _ in 0..<400 {
            let text = printed.withLock { $0 }
            if text.hasSuffix("}\n"), let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
                let fields = object as? [String: String]
            {
                return (fields, task)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        Issue.record("warden provider printed nothing")
        throw CancellationError()
    }

    @Test func googleAnnouncesNoLogoutAndNoPARAndSignsIn() async throws {
        let (fields, task) = try await Self.start(["--emulate", "google", "--client-id", "newcomer"])
        defer { task.cancel() }
        let issuer = try #require(fields["issuer"])
        #expect(fields["client_id"] == "newcomer" && fields["emulation"] == "google")
        let discover = await CLI.run(["discover", issuer])
        #expect(discover.status == 0, "\(discover.stdout) \(discover.stderr)")
        #expect(discover.stdout.contains("no end_session_endpoint"), "\(discover.stdout)")
        #expect(discover.stdout.contains("not offered: parameters go in the browser URL"), "\(discover.stdout)")
        // Google answers offline_access with invalid_scope: the newcomer's login asks for what Google takes.
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let login = await CLI.run(
            [
                "login", "--issuer", issuer, "--client-id", "newcomer", "--scope", "openid email", "--param",
                "access_type=offline",
            ] + OpenIDCommandTests.browser + OAuthCommandTests.fileStore, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Signed in"), "\(login.stdout)")
    }

    @Test func entraMultiTenantSignsInWithTheTemplate() async throws {
        let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
        let (fields, task) = try await Self.start(["--emulate", "entra", "--tenant", tenant])
        defer { task.cancel() }
        let common = try #require(fields["multi_tenant_issuer"])
        let template = try #require(fields["issuer_template"])
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        // Without the template the common document's {tenantid} issuer is refused, naming the fix.
        let plain = await CLI.run(
            ["login", "--issuer", common, "--client-id", "warden-demo"] + OpenIDCommandTests.browser
                + OAuthCommandTests.fileStore, home: home)
        #expect(plain.status == 2 && plain.stderr.contains("issuer_mismatch"), "\(plain.stderr)")
        let login = await CLI.run(
            [
                "login", "--issuer", common, "--client-id", "warden-demo", "--issuer-template", template,
                "--allowed-tenant", tenant,
            ] + OpenIDCommandTests.browser + OAuthCommandTests.fileStore, home: home)
        #expect(login.status == 0, "\(login.stderr)")
        // The profile keeps the tenant's issuer, so a later refresh discovers the tenant, not the template.
        let token = await CLI.run(["token", "--min-ttl", "86400"] + OAuthCommandTests.fileStore, home: home)
        #expect(token.status == 0, "\(token.stderr)")
        // Another tenant is refused, and an --allowed-tenant without a template is a usage error.
        let otherHome = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: otherHome) }
        let other = await CLI.run(
            [
                "login", "--issuer", common, "--client-id", "warden-demo", "--issuer-template", template,
                "--allowed-tenant", "00000000-0000-0000-0000-000000000001",
            ] + OpenIDCommandTests.browser
                + OAuthCommandTests.fileStore, home: otherHome)
        #expect(other.status == 1 && other.stderr.contains("tenant"), "\(other.stderr)")
        let stray = await CLI.run(
            ["login", "--issuer", common, "--client-id", "x", "--allowed-tenant", tenant] + OAuthCommandTests.fileStore)
        #expect(stray.status == 2 && stray.stderr.contains("needs --issuer-template"))
    }

    @Test func anUnknownEmulationOrTenantIsAUsageError() async {
        #expect(await CLI.run(["provider", "--emulate", "myidp"]).status == 2)
        #expect(await CLI.run(["provider", "--emulate", "entra", "--tenant", "contoso.com"]).status == 2)
    }
}

/// `warden login --device`: the code and the address go to stderr, the command waits for the approval on another
/// device and stores the session like a browser sign-in.
@Suite("warden login --device")
struct LoginDeviceTests {
    @Test func theUserApprovesOnAnotherDevice() async throws {
        let provider = try LocalProvider(clientID: "cli-tv")
        defer { provider.stop() }
        provider.setDeviceTiming(interval: 1, lifetime: 60)
        let home = CLI.temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let errors = Locked("")
        let approved = Locked(false)
        let io = CommandIO(
            writeOut: { _ in },
            writeErr: { text in
                errors.withLock { $0 += text }
                // "To sign in, open <uri> and enter <code>": the user types the code elsewhere.
                if let range = text.range(of: "and enter ") {
                    let code = text[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
                    approved.withLock { $0 = provider.decideDevice(userCode: code, approve: true) }
                }
            }, readStdin: { Data() }, environment: CLI.environment(home: home))
        let status = await WardenCLI.main(
            arguments: ["login", "--issuer", provider.issuer, "--client-id", "cli-tv", "--device"]
                + OAuthCommandTests.fileStore, io: io)
        #expect(status == 0, "\(errors.current)")
        #expect(approved.current && errors.current.contains("/device"))
        let token = await CLI.run(["token"] + OAuthCommandTests.fileStore, home: home)
        #expect(token.status == 0 && !token.stdout.isEmpty, "\(token.stderr)")
    }
}
