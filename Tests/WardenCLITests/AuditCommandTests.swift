import Foundation
import Testing

@Suite("warden audit")
struct AuditCommandTests {
    static func tree(_ files: [String: String]) throws -> String {
        let root = NSTemporaryDirectory() + "warden-audit-cli-\(UUID().uuidString)"
        for (path, contents) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    static var sampleApp: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WardenAuditTests/Fixtures/SampleApp").path
    }

    @Test func exitCodesFollowFailOn() async throws {
        let clean = try Self.tree(["A.swift": "let url = URL(string: \"https://example.com\")\n"])
        let run = await CLI.run(["audit", clean])
        #expect(run.status == 0)
        #expect(run.stdout.contains("0 finding(s)"))

        let warnings = try Self.tree(["A.swift": "let url = \"http://example.com\"\n"])
        #expect(await CLI.run(["audit", warnings]).status == 1)
        #expect(await CLI.run(["audit", warnings, "--fail-on", "error"]).status == 0)
        #expect(await CLI.run(["audit", warnings, "--fail-on", "note"]).status == 1)
    }

    @Test func formatsAndOutputFile() async throws {
        let json = await CLI.run(["audit", Self.sampleApp, "--format", "json"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect((object["findings"] as! [[String: Any]]).count == 23)
        #expect(json.stderr.contains("skipped Sources/Generated/Blob.swift: binary"))
        // --json is every command's JSON switch; for audit it is --format json.
        let flag = await CLI.run(["audit", Self.sampleApp, "--json"])
        #expect(flag.status == 1 && flag.stdout == json.stdout)
        // Xcode's issue navigator needs absolute paths (a Run Script build phase).
        let absolute = await CLI.run(["audit", Self.sampleApp, "--absolute-paths", "--no-color"])
        let root = URL(fileURLWithPath: Self.sampleApp).standardizedFileURL.path
        #expect(absolute.stdout.contains("\(root)/Resources/Info.plist:9:1: error: NSAllowsArbitraryLoads"))

        let output = NSTemporaryDirectory() + "warden-\(UUID().uuidString).sarif"
        let sarif = await CLI.run(["audit", Self.sampleApp, "--format", "sarif", "--output", output])
        #expect(sarif.status == 1 && sarif.stdout.isEmpty)
        let document =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
        #expect(document["version"] as? String == "2.1.0")
    }

    @Test func baselineWorkflow() async throws {
        let root = try Self.tree(["A.swift": "print(token)\n"])
        let baseline = root + "/.warden-baseline.json"
        let write = await CLI.run(["audit", root, "--write-baseline", baseline])
        #expect(write.status == 0)
        #expect(await CLI.run(["audit", root, "--baseline", baseline]).status == 0)
        try "print(token)\nprint(password)\n".write(toFile: root + "/A.swift", atomically: true, encoding: .utf8)
        let later = await CLI.run(["audit", root, "--baseline", baseline])
        #expect(later.status == 1)
        #expect(later.stdout.contains("A.swift:2:1: error:") && !later.stdout.contains("A.swift:1:"))
    }

    @Test(arguments: [
        (["audit", "/nonexistent/app"], "warden: unreadable_path:"),
        (["audit", ".", "--format", "xml"], "warden: usage: '--format' must be text, json or sarif"),
        (["audit", ".", "--fail-on", "fatal"], "warden: usage: '--fail-on' must be note, warning or error"),
        (["audit", ".", "--baseline", "/nonexistent/baseline.json"], "warden: unreadable_file:"),
        (["audit", "a", "b"], "warden: usage: give at most one PATH"),
        (
            ["audit", ".", "--json", "--format", "sarif"],
            "warden: usage: --json and --format sarif ask for two formats"
        ),
        (["audit", ".", "--json", "--absolute-paths"], "warden: usage: --absolute-paths applies to the text report"),
    ])
    func errorsAreExitTwo(arguments: [String], message: String) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }

    @Test func unusableBaselineAndOutputFilesAreExitTwo() async throws {
        let root = try Self.tree(["A.swift": "print(token)\n", "not-a-baseline.json": #"{"findings":3}"#])
        for (arguments, message) in [
            (["--baseline", root + "/not-a-baseline.json"], "warden: invalid_baseline:"),
            (["--baseline", root + "/A.swift"], "warden: invalid_baseline:"),
            (["--write-baseline", root + "/missing/dir/baseline.json"], "warden: unwritable_file:"),
            (["--output", root + "/missing/dir/report.txt"], "warden: unwritable_file:"),
        ] {
            let run = await CLI.run(["audit", root] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func includeTestsListsFindingsInTestCode() async throws {
        let root = try Self.tree(["App/A.swift": "print(token)\n", "AppTests/ATests.swift": "print(token)\n"])
        let plain = await CLI.run(["audit", root])
        #expect(plain.stdout.contains("App/A.swift:1:1:") && !plain.stdout.contains("ATests.swift"))
        #expect(plain.stdout.contains("1 in test code not shown (--include-tests)"))
        let all = await CLI.run(["audit", root, "--include-tests"])
        #expect(all.stdout.contains("AppTests/ATests.swift:1:1:") && !all.stdout.contains("not shown"))
    }

    @Test func benchAuditScoresLabels() async throws {
        let root = try Self.tree([
            "A.swift": "print(token)\nprint(name)\nlogger.info(\"\\(token)\")\n",
            "good.tsv":
                "A.swift\t1\texpect\tsecret-in-log\nA.swift\t3\texpect\tsecret-in-log\nA.swift\t2\ttwin\tsecret-in-log\n",
            "bad.tsv": "A.swift\t1\texpect\tno-such-rule\n",
        ])
        let scored = await CLI.run(["bench", "audit", root, "--labels", root + "/good.tsv", "--runs", "1"])
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(scored.stdout.contains("recall 50.0%  precision 100.0%  twins flagged 0/1"), "\(scored.stdout)")
        #expect(scored.stdout.contains("missed: A.swift:3 secret-in-log"))
        let json = await CLI.run(["bench", "audit", root, "--labels", root + "/good.tsv", "--runs", "1", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect((object["total"] as? [String: Any])?["recall"] as? Double == 50)
        let bad = await CLI.run(["bench", "audit", root, "--labels", root + "/bad.tsv", "--runs", "1"])
        #expect(bad.status == 2 && bad.stderr.contains("invalid_labels") && bad.stderr.contains("unknown rule"))
        let noPath = await CLI.run(["bench", "audit", "--labels", root + "/good.tsv"])
        #expect(noPath.status == 2 && noPath.stderr.contains("'--labels' needs the PATH"))
        let lines = await CLI.run(["bench", "audit", root, "--lines", "5000"])
        #expect(lines.status == 2 && lines.stderr.contains("does not apply to PATH"))
    }

    /// A label one line off its finding is missed exactly and answered with `--line-tolerance 1`; out-of-range and
    /// label-less tolerances are usage errors.
    @Test func benchAuditLineToleranceAnswersNearbyLabels() async throws {
        let root = try Self.tree([
            "A.swift": "let a = 1\nprint(token)\n", "near.tsv": "A.swift\t1\texpect\tsecret-in-log\n",
        ])
        let exact = await CLI.run(["bench", "audit", root, "--labels", root + "/near.tsv", "--runs", "1"])
        #expect(exact.stdout.contains("missed: A.swift:1 secret-in-log"), "\(exact.stdout)")
        let near = await CLI.run([
            "bench", "audit", root, "--labels", root + "/near.tsv", "--line-tolerance", "1", "--runs", "1",
        ])
        #expect(near.status == 0 && near.stdout.contains("recall 100.0%") && !near.stdout.contains("missed:"))
        for bad in [["--line-tolerance", "11"], ["--line-tolerance", "-1"]] {
            let run = await CLI.run(["bench", "audit", root, "--labels", root + "/near.tsv", "--runs", "1"] + bad)
            #expect(run.status == 2, "\(bad): \(run.stdout)")
        }
        let noLabels = await CLI.run(["bench", "audit", root, "--line-tolerance", "1", "--runs", "1"])
        #expect(noLabels.status == 2 && noLabels.stderr.contains("applies to the scoring of '--labels'"))
    }

    @Test func listsRules() async {
        let run = await CLI.run(["audit", "--rules"])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 35)
        #expect(run.stdout.contains("keychain-accessible-always [error]"))
    }
}
