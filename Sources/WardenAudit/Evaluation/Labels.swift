import Foundation

/// Ground truth for measuring the auditor on a labelled app: for each line, the rules that must be reported
/// there (`expect`) and the rules whose correct-code twin sits there and must not be (`twin`).
///
/// The file is tab-separated, one label per line: `path<TAB>line<TAB>expect|twin<TAB>rule-id`, paths relative to
/// the audited root; `#` starts a comment. ``markers(root:)`` reads the same labels from `// expect: RULE` and
/// `// twin: RULE` comments (`<!-- ... -->` in property lists), so the file can be checked against the code.
package struct Labels: Sendable, Equatable {
    /// `expect`: the rule must be reported on the line; `twin`: the correct version sits there and must not be.
    package enum Kind: String, Sendable { case expect, twin }

    /// One label: a rule on a line of a file.
    package struct Label: Sendable, Hashable, Comparable {
        /// The path relative to the audited root.
        package let file: String
        /// The 1-based line.
        package let line: Int
        package let kind: Kind
        /// A rule id of ``Catalogue``.
        package let rule: String

        /// A label of `rule` on `line` of `file`.
        package init(file: String, line: Int, kind: Kind, rule: String) {
            self.file = file
            self.line = line
            self.kind = kind
            self.rule = rule
        }

        package static func < (lhs: Label, rhs: Label) -> Bool {
            (lhs.file, lhs.line, lhs.kind.rawValue, lhs.rule) < (rhs.file, rhs.line, rhs.kind.rawValue, rhs.rule)
        }
    }

    /// Why a labels file could not be read.
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The labels, sorted by file, line, kind and rule.
    package let labels: [Label]

    /// Labels from a list (sorted).
    package init(_ labels: [Label]) { self.labels = labels.sorted() }

    /// Parses the tab-separated form; every rule must be in ``Catalogue``.
    package init(tsv: String) throws {
        var labels: [Label] = []
        for (number, raw) in tsv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)  // CRLF files too
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let lineNumber = Int(fields[1]), lineNumber > 0,
                let kind = Kind(rawValue: fields[2])
            else {
                throw Malformed(description: "line \(number + 1): expected path, line, expect|twin and a rule id")
            }
            guard Catalogue.rule(fields[3]) != nil else {
                throw Malformed(description: "line \(number + 1): unknown rule '\(fields[3])'")
            }
            labels.append(Label(file: fields[0], line: lineNumber, kind: kind, rule: fields[3]))
        }
        self.init(labels)
    }

    /// The tab-separated form.
    package var tsv: String {
        labels.map { "\($0.file)\t\($0.line)\t\($0.kind.rawValue)\t\($0.rule)\n" }.joined()
    }

    /// The labels written as comments in the files under `root`: `expect: a, b` and `twin: c` after `//`, `/*`,
    /// `#` or `<!--`, plus `labels-*.txt` files (`path:line expect|twin rule`) for formats without comments (JSON).
    package static func markers(root: String) throws -> Labels {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue,
            let enumerator = FileManager.default.enumerator(atPath: root)
        else {
            throw Malformed(description: "'\(root)' cannot be read")
        }
        var labels: [Label] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
            if name.hasPrefix("labels-"), name.hasSuffix(".txt") {
                for raw in text.split(separator: "\n") where !raw.hasPrefix("#") {
                    let fields = raw.split(separator: " ").map(String.init)
                    guard fields.count == 3, let colon = fields[0].lastIndex(of: ":"),
                        let line = Int(fields[0][fields[0].index(after: colon)...]),
                        let kind = Kind(rawValue: fields[1])
                    else { throw Malformed(description: "\(path): '\(raw)' is not 'path:line expect|twin rule'") }
                    labels.append(Label(file: String(fields[0][..<colon]), line: line, kind: kind, rule: fields[2]))
                }
                continue
            }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for kind in [Kind.expect, .twin] {
                    guard let range = line.range(of: "\(kind.rawValue): ") else { continue }
                    let before = line[..<range.lowerBound]
                    guard before.contains("//") || before.contains("<!--") || before.contains("/*") else { continue }
                    let list = line[range.upperBound...].replacingOccurrences(of: "-->", with: "")
                        .replacingOccurrences(of: "*/", with: "")
                    for rule in list.split(separator: ",") {
                        let id = rule.trimmingCharacters(in: .whitespaces)
                        guard !id.isEmpty else { continue }
                        labels.append(Label(file: path, line: number + 1, kind: kind, rule: id))
                    }
                }
            }
        }
        return Labels(labels)
    }
}

/// How an audit did against ``Labels``: per rule, the labelled findings it reported (recall), the findings that
/// were not labelled (precision), and the correct-code twins it flagged.
package struct LabelScore: Sendable {
    package struct Counts: Sendable, Equatable {
        /// `expect` labels.
        package var labelled = 0
        /// `expect` labels reported.
        package var found = 0
        /// Findings on no `expect` label of their rule.
        package var falsePositives = 0
        /// `twin` labels.
        package var twins = 0
        /// `twin` labels with a finding of their rule.
        package var twinsFlagged = 0

        /// found / labelled (1 when nothing is labelled).
        package var recall: Double { labelled == 0 ? 1 : Double(found) / Double(labelled) }
        /// found / (found + false positives) (1 when nothing was reported).
        package var precision: Double {
            found + falsePositives == 0 ? 1 : Double(found) / Double(found + falsePositives)
        }
        /// twinsFlagged / twins (0 when there are no twins).
        package var twinRate: Double { twins == 0 ? 0 : Double(twinsFlagged) / Double(twins) }

        mutating func add(_ other: Counts) {
            labelled += other.labelled
            found += other.found
            falsePositives += other.falsePositives
            twins += other.twins
            twinsFlagged += other.twinsFlagged
        }
    }

    /// Counts per rule id, for every rule that has a label or a finding.
    package let rules: [String: Counts]
    /// The `expect` labels not reported, as `file:line rule`.
    package let missed: [String]
    /// The findings on no `expect` label of their rule, as `file:line rule`.
    package let unexpected: [String]

    /// The counts of every rule added up.
    package var total: Counts { rules.values.reduce(into: Counts()) { $0.add($1) } }

    /// Scores `report` against `labels`. With `tolerance` 0 a label is reported only by a finding of its rule on its
    /// own line (the fixture apps, written with their labels). A labeller of a real app names one line of a statement
    /// that spans several (the `SecItemAdd` call, the class constant three lines up), so a positive `tolerance`
    /// lets a finding of the rule within that many lines in the same file answer a label, one finding per label,
    /// nearest first; a twin is flagged by a finding on its line or one that near which no expect label took.
    package init(report: AuditReport, labels: Labels, tolerance: Int = 0) {
        var rules: [String: Counts] = [:]
        // Finding spots per file and rule: the line a finding is on, with the lines it names as related (the
        // SecItemAdd its class reaches); findings on one line are one spot. Which spots answered an expect label.
        var spots: [String: [Int: Set<Int>]] = [:]
        for finding in report.findings {
            spots["\(finding.file) \(finding.rule.id)", default: [:]][finding.line, default: []].formUnion(
                [finding.line] + finding.related)
        }
        var used = Set<String>()
        /// How far a spot is from `line`: 0 on one of its lines.
        func distance(_ lines: Set<Int>, _ line: Int) -> Int { lines.map { abs($0 - line) }.min() ?? .max }
        // A finding an expect label took answers no other label: not a second expect, and not a twin beside it
        // (a twin on the finding's own lines is flagged all the same).
        func answer(_ label: Labels.Label, consume: Bool) -> Bool {
            let group = "\(label.file) \(label.rule)"
            // A finding on the label's own line answers it even when taken (a twin there is flagged all the same);
            // any other spot, at a related line or near, only while no label took it.
            let candidates = (spots[group] ?? [:]).filter {
                $0.key == label.line
                    || (distance($0.value, label.line) <= tolerance && !used.contains("\(group) \($0.key)"))
            }
            guard
                let nearest = candidates.min(by: {
                    (distance($0.value, label.line), $0.key) < (distance($1.value, label.line), $1.key)
                })
            else { return false }
            if consume { used.insert("\(group) \(nearest.key)") }
            return true
        }
        var missed: [String] = []
        // Exact lines first, so that a nearby label cannot take a finding that sits on another label's own line.
        let expects = labels.labels.filter { $0.kind == .expect }
        var found = Set<Int>()
        for (position, label) in expects.enumerated() {
            let group = "\(label.file) \(label.rule)"
            // A finding on the label's line before one that names it as related.
            let exact = (spots[group] ?? [:]).filter { $0.value.contains(label.line) }.keys
                .sorted { ($0 == label.line ? 0 : 1, $0) < ($1 == label.line ? 0 : 1, $1) }
            if let spot = exact.first(where: { !used.contains("\(group) \($0)") }) {
                used.insert("\(group) \(spot)")
                found.insert(position)
            }
        }
        for (position, label) in expects.enumerated() where !found.contains(position) {
            if tolerance > 0, answer(label, consume: true) { found.insert(position) }
        }
        for (position, label) in expects.enumerated() {
            rules[label.rule, default: Counts()].labelled += 1
            if found.contains(position) {
                rules[label.rule, default: Counts()].found += 1
            } else {
                missed.append("\(label.file):\(label.line) \(label.rule)")
            }
        }
        for label in labels.labels where label.kind == .twin {
            rules[label.rule, default: Counts()].twins += 1
            if answer(label, consume: false) { rules[label.rule, default: Counts()].twinsFlagged += 1 }
        }
        var unexpected: [String] = []
        for (group, groupSpots) in spots.sorted(by: { $0.key < $1.key }) {
            let space = group.lastIndex(of: " ")!
            let (file, rule) = (group[..<space], String(group[group.index(after: space)...]))
            for line in groupSpots.keys.sorted() where !used.contains("\(group) \(line)") {
                rules[rule, default: Counts()].falsePositives += 1
                unexpected.append("\(file):\(line) \(rule)")
            }
        }
        self.rules = rules
        self.missed = missed.sorted()
        self.unexpected = unexpected
    }
}
