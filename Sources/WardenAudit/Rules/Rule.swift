/// How serious a finding is. `--fail-on` compares with this order: note < warning < error.
public enum Severity: String, Sendable, Comparable, CaseIterable {
    /// The levels, least serious first.
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// GitHub code scanning's `security-severity` (0-10): error → high, warning → medium, note → low.
    public var securitySeverity: String {
        switch self {
        case .error: "8.0"
        case .warning: "5.5"
        case .note: "2.0"
        }
    }
}

/// One entry of the catalogue: a stable id (used in suppressions, baselines and SARIF), a severity, a one-line
/// message, the fix, and the OWASP MASVS control and MASWE weakness it maps to.
public struct RuleInfo: Sendable, Hashable {
    /// The stable id, used in `warden:ignore` suppressions, baselines and SARIF.
    public let id: String
    /// How serious its findings are.
    public let severity: Severity
    /// A short title.
    public let name: String
    /// The default one-line message of a finding.
    public let message: String
    /// How to fix it.
    public let fix: String
    /// The OWASP MASVS controls it maps to (`MASVS-AUTH-1`...).
    public let masvs: [String]
    /// The OWASP MASWE weaknesses it maps to (`MASWE-0019`...); may be empty.
    public let maswe: [String]
    /// The MITRE CWE weaknesses it finds (`CWE-319`...); empty for a rule about a misconfiguration that is no
    /// weakness of its own.
    public var cwe: [String] { (Catalogue.cweByRule[id] ?? []).map { "CWE-\($0)" } }

    /// Creates a catalogue entry (the catalogue is ``Catalogue/all``).
    public init(
        id: String, severity: Severity, name: String, message: String, fix: String, masvs: [String],
        maswe: [String] = []
    ) {
        self.id = id
        self.severity = severity
        self.name = name
        self.message = message
        self.fix = fix
        self.masvs = masvs
        self.maswe = maswe
    }
}

/// One finding.
public struct Finding: Sendable, Hashable {
    /// The rule that found it.
    public let rule: RuleInfo
    /// The path relative to the audited root.
    public let file: String
    /// The 1-based line in ``Finding/file``.
    public let line: Int
    /// The 1-based column in ``Finding/line`` (1 when the rule reports a whole line).
    public let column: Int
    /// The message: the rule's default one, or a more specific one the rule wrote.
    public let message: String
    /// A fingerprint stable across unrelated edits (rule, file, the line's code with string literals emptied, occurrence).
    public internal(set) var fingerprint: String
    /// Whether the file is test code (a test target, `*Tests/`, an XCTest or Swift Testing file); such findings
    /// are reported apart and only listed with ``AuditOptions/includeTests``.
    public internal(set) var inTestCode: Bool = false
    /// Other lines of ``file`` the finding is about, ascending: where the mistake takes effect when that is not
    /// where it is made (the `SecItemAdd` that stores an item with the accessibility class on ``line``).
    public internal(set) var related: [Int] = []

    /// The rule's severity.
    public var severity: Severity { rule.severity }
}

/// The tokens that wake a rule up in a source file. One dictionary lookup per token decides which rules look at
/// it, so that the scan stays linear however many rules there are.
struct Triggers: Sendable {
    /// Identifiers spelled exactly so.
    var identifiers: Set<String> = []
    /// Attributes (`@AppStorage` → `AppStorage`).
    var attributes: Set<String> = []
    /// Operators (`==`, `=`).
    var operators: Set<String> = []
    /// Every string literal.
    var strings = false
    /// Identifiers that pass this cheap test (for names matched by a part, such as `...Leeway`).
    var identifierTest: (@Sendable (String) -> Bool)?
}

/// A family of checks: the catalogue entries it reports, what wakes it up, and what it does with a source file,
/// a resource file and the whole project.
///
/// A family lives in one file under `Rules/`, is listed once in ``RuleSet/all``, and has positive and negative
/// fixtures in Swift and Objective-C (`Tests/WardenAuditTests/RuleFixtures.swift`). Dataflow (which values carry
/// a secret, weak randomness, decoded JWT claims or an authorization URL) comes from ``FileScan/flow``.
protocol Rule: Sendable {
    /// The catalogue entries this family reports.
    var reports: [RuleInfo] { get }
    /// The tokens that wake it up (none: it only works in ``finish(_:)`` or on resources).
    var triggers: Triggers { get }
    /// Called for each token of a source file that matches ``triggers``, in order.
    func check(_ scan: FileScan, at index: Int)
    /// Called once per source file after every token was seen.
    func finish(_ scan: FileScan)
    /// Called for each resource file (property lists, entitlements, JSON, xcconfig).
    func check(resource: ResourceFile, _ report: ResourceReport)
    /// Called once after every file, with what the files recorded.
    func finish(project: ProjectFacts, _ report: ProjectReport)
}

extension Rule {
    var triggers: Triggers { Triggers() }
    func check(_ scan: FileScan, at index: Int) {}
    func finish(_ scan: FileScan) {}
    func check(resource: ResourceFile, _ report: ResourceReport) {}
    func finish(project: ProjectFacts, _ report: ProjectReport) {}
}

/// Collects the findings of a resource file.
final class ResourceReport {
    private(set) var findings: [RawFinding] = []
    /// Facts the file contributes to the project-wide rules.
    var facts = FileFacts()

    func report(_ rule: RuleInfo, line: Int, _ message: String? = nil) {
        findings.append(RawFinding(rule: rule, line: line, column: 1, message: message ?? rule.message))
    }

    /// Reports unless some file of the project raises `flag` (decided after every file was read): an exception the
    /// app's kind explains, such as a browser's arbitrary loads.
    func report(_ rule: RuleInfo, line: Int, _ message: String? = nil, unless flag: String) {
        let own = "resource:" + rule.id
        facts.flags.insert(own)
        facts.pending.append(
            PendingFinding(
                flag: own, also: nil, unless: flag,
                finding: RawFinding(rule: rule, line: line, column: 1, message: message ?? rule.message)))
    }
}

/// Collects project-wide findings, each in the file that caused it.
final class ProjectReport {
    private(set) var findings: [(file: Int, finding: RawFinding)] = []

    func report(_ rule: RuleInfo, file: Int, line: Int, column: Int, _ message: String? = nil) {
        findings.append(
            (file, RawFinding(rule: rule, line: line, column: column, message: message ?? rule.message)))
    }

    /// A finding a file left pending (``PendingFinding``), confirmed by the project.
    func report(_ finding: RawFinding, file: Int) { findings.append((file, finding)) }
}
