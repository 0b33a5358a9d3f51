import Foundation
import Testing
import WardenCore

@testable import WardenAudit

#if canImport(Glibc)
    import Glibc
#endif

/// `warden audit` runs in CI on pull requests: the tree is the attacker's. A committed link to `/dev/zero`, a FIFO,
/// a file elsewhere on the machine or a huge file costs a line in the skipped list, never memory, a hang or a leak of
/// what lies outside the tree.
@Suite("Auditing an untrusted tree", .timeLimit(.minutes(1)))
struct UntrustedTreeTests {
    static func tree() throws -> (root: URL, outside: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "warden-untrusted-\(UUID().uuidString)")
        let root = base.appendingPathComponent("Repo")
        let outside = base.appendingPathComponent("Elsewhere")
        for directory in [root.appendingPathComponent("App"), outside] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Data("print(token)\n".utf8).write(to: root.appendingPathComponent("App/A.swift"))
        // What lies outside: a host name the report must never show.
        let plist = """
            <plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>build-cache.internal-corp.example</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            </dict></dict></dict></plist>
            """
        try Data(plist.utf8).write(to: outside.appendingPathComponent("Info.plist"))
        try Data("print(password)\n".utf8).write(to: outside.appendingPathComponent("Secret.swift"))
        let links: [(String, String)] = [
            ("App/Zero.swift", "/dev/zero"), ("App/Random.json", "/dev/urandom"),
            ("App/Info.plist", outside.appendingPathComponent("Info.plist").path),
            ("App/Relative.swift", "../../Elsewhere/Secret.swift"),
            ("App/Alias.swift", root.appendingPathComponent("App/A.swift").path),
            ("App/PipeLink.swift", root.appendingPathComponent("App/Pipe.swift").path),
        ]
        for (path, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent(path).path, withDestinationPath: target)
        }
        #expect(mkfifo(root.appendingPathComponent("App/Pipe.swift").path, 0o600) == 0)
        // 9 MiB, sparse: past the cap without writing 9 MiB.
        let big = root.appendingPathComponent("App/Big.swift").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data("print(token)\n".utf8)))
        #expect(truncate(big, 9 << 20) == 0)
        return (root, outside)
    }

    @Test func linksDevicesFIFOsAndHugeFilesAreSkippedWithTheirReason() throws {
        let (root, outside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let report = try Auditor().audit(root: root.path)
        let skipped = Dictionary(report.skipped.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(skipped["App/Zero.swift"] == "a link leading outside the audited tree")
        #expect(skipped["App/Random.json"] == "a link leading outside the audited tree")
        #expect(skipped["App/Info.plist"] == "a link leading outside the audited tree")
        #expect(skipped["App/Relative.swift"] == "a link leading outside the audited tree")
        #expect(skipped["App/Pipe.swift"] == "not a regular file")
        #expect(skipped["App/PipeLink.swift"] == "not a regular file")
        #expect(skipped["App/Big.swift"] == "larger than 8 MiB")
        // A link that stays inside the tree is audited as the file it names.
        #expect(report.findings.contains { $0.file == "App/Alias.swift" })
        #expect(report.findings.contains { $0.file == "App/A.swift" })
        #expect(!report.findings.contains { ["App/Info.plist", "App/Relative.swift"].contains($0.file) })
        // Nothing from outside reaches any format.
        for rendered in [
            Reporter.text(report, colour: false), Reporter.json(report, version: "test"),
            Reporter.sarif(report, version: "test"),
        ] {
            #expect(!rendered.contains("internal-corp"))
        }
        _ = outside
    }

    /// The check after `open` asks the descriptor where it really is (a directory swapped for a link between
    /// `realpath` and `open` would lead elsewhere): the answer is the file's real path, through links.
    @Test func anOpenedFileSaysWhereItReallyIs() throws {
        let (root, outside) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let through = root.appendingPathComponent("App/Relative.swift").path
        let fd = open(through, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let real = try #require(DirectoryWalk.realPath(outside.appendingPathComponent("Secret.swift").path))
        #expect(DirectoryWalk.openedPath(fd) == real)
    }

    /// A single file named on the command line is audited where it really is, with the same bounds.
    @Test func aSingleFileRootIsReadWithTheSameBounds() throws {
        let (root, _) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let pipe = try Auditor().audit(root: root.appendingPathComponent("App/Pipe.swift").path)
        #expect(pipe.skipped.map(\.reason) == ["not a regular file"])
        let big = try Auditor().audit(root: root.appendingPathComponent("App/Big.swift").path)
        #expect(big.skipped.map(\.reason) == ["larger than 8 MiB"])
        let alias = try Auditor().audit(root: root.appendingPathComponent("App/Alias.swift").path)
        #expect(alias.findings.count == 1 && alias.findings.first?.file == "A.swift")
    }

    /// Resource rules and suppressions are counted in the same budget as source scans, and stay linear.
    struct Shape: CustomTestStringConvertible, Sendable {
        let name: String
        let files: @Sendable (Int) -> [String: String]
        let findings: @Sendable (Int) -> Int
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(
            name: "ATS exception domains",
            files: { count in
                let domains = (0..<count).map {
                    "<key>h\($0).example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"
                }
                return [
                    "App/Info.plist":
                        "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>\n"
                        + domains.joined(separator: "\n") + "\n</dict></dict></dict></plist>"
                ]
            }, findings: { $0 }),
        Shape(
            name: "malformed warden:ignore lines (each a finding)",
            files: { count in
                [
                    "App/A.swift": (0..<count).map { "// warden:ignore secret-in-log\nlet x\($0) = 1" }.joined(
                        separator: "\n")
                ]
            }, findings: { $0 }),
        Shape(
            name: "warden:ignore lines that each suppress a finding",
            files: { count in
                [
                    "App/A.swift": "func log(password: String) {\n"
                        + (0..<count).map { _ in "    print(password)  // warden:ignore secret-in-log the test's own" }
                        .joined(separator: "\n") + "\n}"
                ]
            }, findings: { _ in 0 }),
    ]

    @Test(arguments: shapes)
    func fourTimesTheInputIsAboutFourTimesTheWork(_ shape: Shape) {
        let small = Auditor().audit(files: shape.files(1000))
        let large = Auditor().audit(files: shape.files(4000))
        #expect(small.findings.count == shape.findings(1000) && large.findings.count == shape.findings(4000))
        if shape.findings(1000) == 0 {
            #expect(small.suppressed == 1000 && large.suppressed == 4000, "\(large.suppressed)")
        }
        #expect(small.steps > 0)
        #expect(Double(large.steps) <= 4.5 * Double(small.steps), "\(small.steps) → \(large.steps) steps")
    }
}

/// The step counts the linear-work tests read are counted where the work is done: the suppression table counts its
/// rows and each probe, the property list counts each byte its key index looks at and each look-up. These pin the
/// exact counts, so a search per finding or per key would have to show up in them.
@Suite struct CountedWorkTests {
    @Test func theSuppressionTableCountsRowsAndProbes() {
        let directives = (0..<1000).map {
            Auditor.Suppression(rules: ["secret-in-log"], line: 2 * $0 + 1, endLine: 2 * $0 + 1)
        }
        var table = SuppressionTable(directives)
        #expect(table.steps == 1000 * 2 * 2, "two rows of one rule per directive")
        var hits = 0
        for line in 1...4000 where table.suppresses("secret-in-log", onLine: line) { hits += 1 }
        #expect(hits == 2000)  // each directive's own line and the line after it
        #expect(table.steps == 4000 + 4000, "one step per probe")
        let other = table.suppresses("another-rule", onLine: 1)
        #expect(!other)
    }

    @Test func thePropertyListIndexCountsTheBytesItLooksAtAndEachLookUp() throws {
        let domains = (0..<4000).map { "<key>h\($0).example.com</key><dict><key>X</key><true/></dict>" }
        let text = "<plist><dict>\n" + domains.joined(separator: "\n") + "\n</dict></plist>"
        let bytes = Array(text.utf8)
        let plist = try #require(PropertyListFile(path: "Info.plist", bytes: bytes))
        let built = plist.steps
        #expect(built > 0 && built <= bytes.count, "one pass over the bytes: \(built) steps for \(bytes.count) bytes")
        for index in 0..<4000 { #expect(plist.line(ofKey: "h\(index).example.com") == index + 2) }
        #expect(plist.steps == built + 4000, "one step per look-up")
    }
}
