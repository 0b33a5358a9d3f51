import Foundation
import Testing

@testable import WardenAudit

/// The labelled fixture app: several files in Swift, Objective-C and property lists, vendored folders and a
/// binary file. The findings must equal `SampleApp.expected` exactly, and each must sit on a line labelled
/// `expect: RULE-ID` in the source.
@Suite("Audit of the labelled sample app")
struct SampleAppTests {
    static let root = Bundle.module.url(forResource: "Fixtures/SampleApp", withExtension: nil)!.path

    @Test func findingsEqualTheExpectedFile() throws {
        let report = try Auditor().audit(root: Self.root)
        let actual = report.findings.map {
            "\($0.file):\($0.line):\($0.column): \($0.severity.rawValue): \($0.rule.id)"
        }
        let expectedURL = Bundle.module.url(forResource: "Fixtures/SampleApp.expected", withExtension: nil)!
        let expected = try String(contentsOf: expectedURL, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(actual == expected)
        #expect(report.suppressed == 1)
        #expect(report.skipped.map(\.path) == ["Sources/Generated/Blob.swift"])
        #expect(!report.findings.contains { $0.file.hasPrefix("Pods/") || $0.file.hasPrefix(".build/") })
    }

    @Test func everyFindingIsOnALabelledLineAndEveryLabelIsFound() throws {
        let report = try Auditor().audit(root: Self.root)
        var labelled = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: Self.root)!
        while let path = enumerator.nextObject() as? String {
            guard !path.hasPrefix("Pods"), !path.hasPrefix(".build"),
                let text = try? String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
            else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: "expect: ") else { continue }
                let rules = line[range.upperBound...].replacingOccurrences(of: "-->", with: "")
                for rule in rules.split(separator: ",") {
                    labelled.insert("\(path):\(number + 1):\(rule.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        let found = Set(report.findings.map { "\($0.file):\($0.line):\($0.rule.id)" })
        #expect(
            found == labelled,
            "unlabelled: \(found.subtracting(labelled).sorted()), missed: \(labelled.subtracting(found).sorted())")
    }

    @Test func vendoredFoldersAreReadOnlyWhenAsked() throws {
        var options = AuditOptions()
        options.excludedDirectories = [".git"]
        let report = try Auditor(options: options).audit(root: Self.root)
        #expect(report.findings.contains { $0.file == "Pods/Alamofire/Vendored.swift" && $0.rule.id == "uiwebview" })
    }
}
