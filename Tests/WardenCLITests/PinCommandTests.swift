import Foundation
import Testing

@Suite("warden pin")
struct PinCommandTests {
    static func recorded() throws -> [String] {
        try String(contentsOfFile: CLI.fixture("expected-pins.txt"), encoding: .utf8).split(separator: "\n")
            .map { "sha256/\($0)" }
    }

    @Test func pinsEachCertificate() async throws {
        let run = await CLI.run(["pin", CLI.fixture("rsa.pem"), CLI.fixture("chain.pem")])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").map(String.init) == [try Self.recorded()[0]] + (try Self.recorded()))
        #expect(run.stderr.isEmpty)
    }

    @Test func readsStandardInputAndPrintsJSON() async throws {
        let pem = try String(contentsOfFile: CLI.fixture("p384.pem"), encoding: .utf8)
        let run = await CLI.run(["pin", "--json", "-"], stdin: pem)
        #expect(run.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: [[String: String]]]
        #expect(json["pins"]?.first?["pin"] == (try Self.recorded())[2])
    }

    @Test(arguments: [
        (["pin"], "warden: usage: missing FILE"),
        (["pin", "/nonexistent/cert.pem"], "warden: unreadable_file: cannot read '/nonexistent/cert.pem'"),
        (["pin", "--bogus", "x"], "warden: usage: unknown option '--bogus'"),
        (["pin", CLI.fixture("expected-pins.txt")], "warden: no_certificate:"),
        (["pin", CLI.fixture("p256.key")], "warden: no_certificate:"),
    ])
    func usageErrorsAreExitTwo(arguments: [String], message: String) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
