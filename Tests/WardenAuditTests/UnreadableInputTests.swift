import Foundation
import Testing

@testable import WardenAudit

@Suite("Unreadable label and resource inputs")
struct UnreadableInputTests {
    @Test func malformedLabelCommentFilesAreTypedErrors() throws {
        let root = NSTemporaryDirectory() + "warden-labels-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "Config.json:3 maybe hardcoded-secret\n".write(
            toFile: root + "/labels-json.txt", atomically: true, encoding: .utf8)
        #expect(throws: Labels.Malformed.self) { try Labels.markers(root: root) }
        #expect(throws: Labels.Malformed.self) { try Labels.markers(root: root + "/missing") }
        // CRLF files read like LF ones.
        #expect(try Labels(tsv: "A.swift\t1\texpect\tsecret-in-log\r\n").labels.count == 1)
    }

    @Test func unreadableResourcesAreSkippedWithAReason() {
        let report = Auditor().audit(contents: [
            "App/Config.json": [0x7B, 0xFF, 0xFE, 0x7D], "App/Build.xcconfig": [0xC3, 0x28],
            "App/Info.plist": Array("not a plist".utf8),
        ])
        let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(skipped["App/Config.json"] == "not UTF-8" && skipped["App/Build.xcconfig"] == "not UTF-8")
        #expect(skipped["App/Info.plist"] == "not a property list with a dictionary at the top")
        #expect(report.findings.isEmpty)
    }

    /// A file that starts or ends at an operator, a bracket or a message send (the fuzz smoke's `==ri`, which once
    /// read the token before the first) is audited like any other: every rule looks only inside the file's tokens.
    @Test func filesStartingOrEndingAtAnOperatorAreAudited() {
        let edges = [
            "==ri", "!= pin", "pin ==", "==", "!=", "=", ".", "[", "]", "(", ")", "{", "}", ":", "@", "*", "!",
            "isEqualToString:", "[a isEqualToString:", "isEqual", "let", "let x", "let x =", "var password =",
            "apiKey = \"sk_live_0123456789abcdef\" ==", "#if", "\"", "/*", "//", "@\"", "http://", "SecItemAdd(",
        ]
        var contents: [String: [UInt8]] = [:]
        for (number, edge) in edges.enumerated() {
            for ext in ["swift", "m", "h", "json", "plist", "xcconfig", "entitlements"] {
                contents["App/E\(number).\(ext)"] = Array(edge.utf8)
            }
        }
        let report = Auditor().audit(contents: contents)
        #expect(report.filesScanned + report.skipped.count == contents.count)
    }
}
