/// How serious a finding is. `--fail-on` compares with this order: note < warning < error.
public enum Severity: String, Sendable, Comparable, CaseIterable {
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

/// A rule of the catalogue: a stable id (used in suppressions, baselines and SARIF), a severity, a one-line
/// message, the fix, and the OWASP MASVS control and MASWE weakness it maps to.
public struct Rule: Sendable, Hashable {
    public let id: String
    public let severity: Severity
    /// A short title.
    public let name: String
    /// The default one-line message of a finding.
    public let message: String
    /// How to fix it.
    public let fix: String
    public let masvs: [String]
    public let maswe: [String]

    /// Creates a rule (the catalogue is ``Catalogue/all``).
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
    public let rule: Rule
    /// The path relative to the audited root.
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    /// A fingerprint stable across unrelated edits (rule, file, the line's code with string literals emptied, occurrence).
    public internal(set) var fingerprint: String

    public var severity: Severity { rule.severity }
}
