import Foundation
import Testing

@testable import WardenAudit

@Suite("Labels and label scores")
struct LabelsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func tabSeparatedRoundTrip() throws {
        let text = "# comment\nA.swift\t3\texpect\tsecret-in-log\n\nB.m\t7\ttwin\tuiwebview\n"
        let labels = try Labels(tsv: text)
        #expect(labels.labels.count == 2)
        #expect(try Labels(tsv: labels.tsv) == labels)
    }

    @Test(arguments: [
        ("A.swift\t3\texpect", "line 1: expected path, line, expect|twin and a rule id"),
        ("A.swift\tthree\texpect\tsecret-in-log", "line 1: expected path, line, expect|twin and a rule id"),
        ("A.swift\t0\texpect\tsecret-in-log", "line 1: expected path, line, expect|twin and a rule id"),
        ("A.swift\t3\tmaybe\tsecret-in-log", "line 1: expected path, line, expect|twin and a rule id"),
        ("\nA.swift\t3\texpect\tno-such-rule", "line 2: unknown rule 'no-such-rule'"),
    ])
    func malformedLabelsAreTypedErrors(text: String, message: String) {
        #expect(throws: Labels.Malformed.self) { try Labels(tsv: text) }
        do {
            _ = try Labels(tsv: text)
        } catch {
            #expect((error as? Labels.Malformed)?.description == message)
        }
    }

    @Test func scoreCountsRecallPrecisionAndTwins() throws {
        let labels = try Labels(
            tsv:
                "A.swift\t1\texpect\tsecret-in-log\nA.swift\t2\texpect\tsecret-in-log\nA.swift\t3\ttwin\tsecret-in-log\n"
                + "A.swift\t4\ttwin\tsecret-in-log\n")
        // Line 1 found, line 2 missed, line 3 (a twin) flagged, line 5 unlabelled.
        let report = Auditor().audit(files: [
            "A.swift": "print(token)\nlogger.info(\"\\(token)\")\nprint(password)\nprint(name)\nprint(secret)\n"
        ])
        let score = LabelScore(report: report, labels: labels)
        let counts = try #require(score.rules["secret-in-log"])
        #expect(counts == LabelScore.Counts(labelled: 2, found: 1, falsePositives: 2, twins: 2, twinsFlagged: 1))
        #expect(counts.recall == 0.5 && abs(counts.precision - 1.0 / 3) < 1e-9 && counts.twinRate == 0.5)
        #expect(score.missed == ["A.swift:2 secret-in-log"])
        #expect(score.unexpected == ["A.swift:3 secret-in-log", "A.swift:5 secret-in-log"])
    }

    /// With a tolerance, one finding answers one label (the nearest, and a label on the finding's own line first),
    /// a twin near a finding no expect label took is flagged, and findings no label took stay unexpected.
    @Test func toleranceMatchesOneFindingPerLabel() throws {
        let report = Auditor().audit(files: [
            "A.swift":
                "let a = 1\nprint(token)\nlet b = 2\nlet c = 3\nprint(secret)\nlet d = 4\nlet e = 5\nprint(password)\n"
        ])
        // Lines 1 and 3 both sit one line from the finding on 2; only one of them can take it. Line 5's finding is
        // on label 5 exactly, so label 4 (one line off) cannot take it, nor can twin 6 be flagged by it. Twin 7 sits
        // one line from finding 8, which no expect label took.
        let labels = try Labels(
            tsv: "A.swift\t1\texpect\tsecret-in-log\nA.swift\t3\texpect\tsecret-in-log\n"
                + "A.swift\t4\texpect\tsecret-in-log\nA.swift\t5\texpect\tsecret-in-log\n"
                + "A.swift\t6\ttwin\tsecret-in-log\nA.swift\t7\ttwin\tsecret-in-log\n")
        let exact = LabelScore(report: report, labels: labels)
        #expect(exact.total.found == 1 && exact.total.twinsFlagged == 0)
        #expect(exact.unexpected == ["A.swift:2 secret-in-log", "A.swift:8 secret-in-log"])
        let near = LabelScore(report: report, labels: labels, tolerance: 1)
        #expect(near.total.found == 2 && near.total.falsePositives == 1, "\(near.missed)")
        #expect(near.missed == ["A.swift:3 secret-in-log", "A.swift:4 secret-in-log"])
        #expect(near.unexpected == ["A.swift:8 secret-in-log"])
        #expect(near.total.twinsFlagged == 1)
        let far = LabelScore(
            report: report, labels: try Labels(tsv: "A.swift\t5\texpect\tsecret-in-log\n"), tolerance: 2)
        #expect(far.total.found == 1 && far.unexpected == ["A.swift:2 secret-in-log", "A.swift:8 secret-in-log"])
    }

    /// A finding answers a label on a line it names as related as on its own, exactly with no tolerance; it is
    /// still one finding: it answers one expect label (with or without a tolerance), and is one false positive when
    /// it answers none.
    @Test func aRelatedLineAnswersALabelOnce() throws {
        let code =
            "func save() {\n var q: [CFString: Any] = [:]\n q[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock\n"
            + " let a = 1\n let b = 2\n let c = 3\n SecItemAdd(q as CFDictionary, nil)\n}\n"
        let report = Auditor().audit(files: ["A.swift": code])
        let finding = try #require(report.findings.first { $0.rule.id == "keychain-not-this-device-only" })
        #expect(finding.line == 3 && finding.related == [7])
        let atWrite = try Labels(tsv: "A.swift\t7\texpect\tkeychain-not-this-device-only\n")
        let score = LabelScore(report: report, labels: atWrite)
        #expect(score.total.found == 1 && score.unexpected.isEmpty)
        let both = try Labels(
            tsv:
                "A.swift\t3\texpect\tkeychain-not-this-device-only\nA.swift\t7\texpect\tkeychain-not-this-device-only\n"
        )
        let once = LabelScore(report: report, labels: both)
        #expect(once.total.found == 1 && once.missed == ["A.swift:7 keychain-not-this-device-only"])
        // With a tolerance too: the finding the line-3 label took cannot answer line 7 through its related line.
        let near = LabelScore(report: report, labels: both, tolerance: 1)
        #expect(near.total.found == 1 && near.missed == ["A.swift:7 keychain-not-this-device-only"])
        let twin = try Labels(tsv: "A.swift\t7\ttwin\tkeychain-not-this-device-only\n")
        #expect(LabelScore(report: report, labels: twin).total.twinsFlagged == 1)
        let none = LabelScore(report: report, labels: try Labels(tsv: "A.swift\t1\texpect\tsecret-in-log\n"))
        #expect(none.unexpected == ["A.swift:3 keychain-not-this-device-only"])
    }

    /// The sample app's labels file says what its `expect:` comments say, and the audit finds exactly those.
    @Test func sampleAppLabelsMatchTheMarkersAndTheAudit() throws {
        let root = Self.fixtures.appendingPathComponent("SampleApp").path
        let file = try String(
            contentsOf: Self.fixtures.appendingPathComponent("SampleApp.labels"), encoding: .utf8)
        let markers = try Labels.markers(root: root)
        #expect(try Labels(tsv: file) == Labels(markers.labels.filter { !$0.file.hasPrefix("Pods/") }))
        let score = LabelScore(report: try Auditor().audit(root: root), labels: try Labels(tsv: file))
        #expect(score.missed.isEmpty && score.unexpected.isEmpty, "\(score.missed) \(score.unexpected)")
        #expect(score.total.recall == 1 && score.total.labelled > 20)
    }

    /// The labelled app (Swift and Objective-C screens, storage, networking and sign-in, each anti-pattern with a
    /// correct twin): at least 95% of its labelled findings found, at most 1% of its twins flagged, and every
    /// finding on a labelled line.
    @Test func labelledAppIsFoundWithItsTwinsLeftAlone() throws {
        let root = Self.fixtures.appendingPathComponent("LabelledApp").path
        let file = try String(contentsOf: Self.fixtures.appendingPathComponent("LabelledApp.labels"), encoding: .utf8)
        let labels = try Labels(tsv: file)
        #expect(try Labels.markers(root: root) == labels, "LabelledApp.labels is stale: run scripts/labels")
        let report = try Auditor().audit(root: root)
        let score = LabelScore(report: report, labels: labels)
        let total = score.total
        #expect(total.labelled >= 150 && total.twins >= 200)
        #expect(total.recall >= 0.95, "missed: \(score.missed)")
        #expect(total.twinRate <= 0.01, "twins flagged")
        #expect(score.unexpected.isEmpty, "not labelled: \(score.unexpected)")
        // Every family is labelled in both languages where it applies.
        let languages = Dictionary(grouping: labels.labels.filter { $0.kind == .expect }, by: \.rule).mapValues {
            Set($0.map { ($0.file as NSString).pathExtension == "h" ? "m" : ($0.file as NSString).pathExtension })
        }
        #expect(languages.count >= 30)
        for (rule, extensions) in languages where !rule.hasPrefix("ats-") && rule != "secret-in-swiftui-storage" {
            #expect(extensions.contains("swift") && extensions.contains("m"), "\(rule): \(extensions.sorted())")
        }
        // Test code is audited but not listed.
        #expect(report.hiddenInTests > 0)
    }
}
