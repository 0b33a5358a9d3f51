import Dispatch
import Foundation
import WardenCore

extension Auditor.FileOutcome {
    /// Parses `warden:ignore RULE[,RULE] reason`; a suppression without a known rule or a reason is itself a
    /// finding and suppresses nothing.
    mutating func addSuppression(_ text: String, line: Int, endLine: Int) {
        // The directive starts the comment (`// warden:ignore ...`, `/* warden:ignore ... */`, `<!-- ... -->`), as
        // swiftlint:disable does; prose that mentions it is not a directive.
        let content = text.drop {
            $0 == "/" || $0 == "*" || $0 == "<" || $0 == "!" || $0 == "-" || $0 == " " || $0 == "\t"
        }
        guard content.hasPrefix("warden:ignore"), let range = text.range(of: "warden:ignore") else { return }
        let rest = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
        let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
        let ids = Set((parts.first ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        let reason =
            parts.count > 1
            ? parts[1].replacingOccurrences(of: "*/", with: "").trimmingCharacters(in: .whitespaces) : ""
        let unknown = ids.filter { Catalogue.rule($0) == nil }
        guard !ids.isEmpty, unknown.isEmpty, !reason.isEmpty else {
            let problem =
                ids.isEmpty || ids == [""]
                ? "warden:ignore without a rule id"
                : !unknown.isEmpty
                    ? "warden:ignore names an unknown rule: \(unknown.sorted().joined(separator: ", "))"
                    : "warden:ignore \(ids.sorted().joined(separator: ",")) needs a reason"
            findings.append(RawFinding(rule: Catalogue.invalidSuppression, line: line, column: 1, message: problem))
            return
        }
        suppressions.append(Auditor.Suppression(rules: ids, line: line, endLine: endLine))
    }
}
