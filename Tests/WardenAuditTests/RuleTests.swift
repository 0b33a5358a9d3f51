import Foundation
import Testing

@testable import WardenAudit

@Suite("Audit rules: positive and negative fixtures")
struct RuleTests {
    static func findings(_ files: [String: String]) -> [Finding] { Auditor().audit(files: files).findings }

    /// A query builder whose name the lexer reads as a keyword (`open`) is still found and judged.
    @Test func aKeywordNamedQueryBuilderIsJudged() {
        func file(_ accessible: String) -> String {
            """
            import Security
            func open(_ d: Data) -> [String: Any] { [kSecClass as String: kSecClassGenericPassword,\(accessible) kSecValueData as String: d] }
            func store(_ d: Data) {
             var query = open(d)
             SecItemAdd(query as CFDictionary, nil) }
            """
        }
        #expect(Self.findings(["A.swift": file("")]).map(\.rule.id) == ["keychain-accessibility-missing"])
        let configured = file(" kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,")
        #expect(Self.findings(["B.swift": configured]).isEmpty)
    }

    /// The project's flags grow to a fixpoint: an implication chain across files raises its end, a confirmed pending
    /// finding raises its rule's flag for another pending finding, and nothing is raised without a source.
    @Test func flagsFollowImplicationsAndConfirmedFindingsToAFixpoint() {
        let rule = PreferencesRules.userDefaults
        func pending(_ flag: String, line: Int) -> PendingFinding {
            PendingFinding(flag: flag, finding: RawFinding(rule: rule, line: line, column: 1, message: "m"))
        }
        var first = FileFacts()
        first.flags = ["a"]
        // (a, a) and (b, c) make cycles: each flag is expanded once. The finding that waits on another comes first,
        // so only a second round over the pending findings confirms it.
        first.implications = [("b", "a"), ("a", "a")]
        first.pending = [pending(FileScan.findingFlag(rule.id), line: 2)]
        var second = FileFacts()
        second.implications = [("c", "b"), ("b", "c")]
        second.pending = [pending("c", line: 1), pending("z", line: 3)]
        let lines = ProjectFacts(files: [first, second]).confirmedPending().map(\.finding.line)
        #expect(lines.sorted() == [1, 2])
        // Without the source flag, neither the chain nor the finding that waits on it holds.
        first.flags = []
        #expect(ProjectFacts(files: [first, second]).confirmedPending().isEmpty)
    }

    /// The Core Data walk follows the object until its name is bound to another one, not past a property of the same
    /// name or an unwrap of the same object; a re-declaration ends it.
    @Test func aCoreDataObjectIsFollowedPastSameNamedPropertiesAndUnwraps() {
        let followed = """
            func save(_ context: NSManagedObjectContext, password: String) {
             let account = Account(context: context)
             self.account = account
             if let account = account as Account? { }
             account.password = password
             try? context.save() }
            """
        #expect(Self.findings(["A.swift": followed]).map(\.line) == [5])
        let rebound = """
            func save(_ context: NSManagedObjectContext, password: String, other: Settings) {
             let account = Account(context: context)
             account = other
             account.password = password }
            """
        #expect(Self.findings(["B.swift": rebound]).isEmpty)
    }

    @Test func everyRuleHasFixtures() {
        let covered = Set(ruleFixtures.map(\.rule))
        for rule in Catalogue.all {
            #expect(covered.contains(rule.id), "\(rule.id) has no fixtures")
        }
        for fixture in ruleFixtures {
            #expect(fixture.positives.count >= 3 && fixture.negatives.count >= 3, "\(fixture.rule)")
            #expect(Catalogue.rule(fixture.rule) != nil, "\(fixture.rule) is not a rule")
        }
    }

    @Test(arguments: ruleFixtures)
    func fixtures(_ fixture: RuleFixture) {
        for (number, files) in fixture.positives.enumerated() {
            let found = Self.findings(files)
            #expect(
                found.contains { $0.rule.id == fixture.rule },
                "positive \(number + 1) of \(fixture.rule) did not fire: \(files.values.sorted().joined(separator: " | "))"
            )
        }
        // Correct code is correct for every rule: a negative gives no finding at all, not only none of its rule.
        for (number, files) in fixture.negatives.enumerated() {
            let found = Self.findings(files)
            #expect(
                found.isEmpty,
                "negative \(number + 1) of \(fixture.rule) fired \(found.map { "\($0.rule.id) at \($0.line):\($0.column)" }): \(files.values.sorted().joined(separator: " | "))"
            )
        }
    }

    @Test func everyRuleHasMetadata() {
        for rule in Catalogue.all {
            #expect(!rule.message.isEmpty && !rule.fix.isEmpty && !rule.name.isEmpty)
            #expect(rule.id.allSatisfy { $0.isLowercase || $0 == "-" })
            if rule.id != "invalid-suppression" {
                #expect(rule.masvs.allSatisfy { $0.hasPrefix("MASVS-") } && !rule.masvs.isEmpty)
            }
            #expect(rule.maswe.allSatisfy { $0.hasPrefix("MASWE-00") })
        }
        #expect(Set(Catalogue.all.map(\.id)).count == Catalogue.all.count)
    }
}
