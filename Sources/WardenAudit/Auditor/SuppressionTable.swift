/// The rules each line of a file is suppressed for: a `warden:ignore` directive covers its own line (the first of
/// its lines) and the line after its end. Built once per file, so that 20,000 directives — each also a finding when
/// malformed — cost 20,000 rows and one probe per finding, never a search per finding.
///
/// ``steps`` counts the work where it is done: one per row written, one per rule added to a row, one per probe. A
/// change that searched the directives per finding would have to count its comparisons here, and the linear-work
/// tests would see it.
struct SuppressionTable {
    private var rules: [Int: Set<String>] = [:]
    /// Rows written, rules added and probes made.
    private(set) var steps = 0

    init(_ suppressions: [Auditor.Suppression]) {
        for suppression in suppressions {
            add(suppression.rules, onLine: suppression.line)
            add(suppression.rules, onLine: suppression.endLine + 1)
        }
    }

    private mutating func add(_ added: Set<String>, onLine line: Int) {
        steps += 1 + added.count
        rules[line, default: []].formUnion(added)
    }

    /// Whether `rule` is suppressed on `line`.
    mutating func suppresses(_ rule: String, onLine line: Int) -> Bool {
        steps += 1
        return rules[line]?.contains(rule) == true
    }
}
