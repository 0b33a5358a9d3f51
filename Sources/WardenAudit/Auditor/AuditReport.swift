import Dispatch
import Foundation
import WardenCore

/// The result of an audit.
public struct AuditReport: Sendable {
    /// The findings after suppressions and the baseline, sorted by file, line, column and rule.
    public let findings: [Finding]
    public let filesScanned: Int
    /// Lines read in the files scanned.
    public let linesScanned: Int
    /// Findings silenced by `warden:ignore` comments.
    public let suppressed: Int
    /// Findings accepted by the baseline.
    public let baselined: Int
    /// Findings in test code left out because ``AuditOptions/includeTests`` is off.
    public let hiddenInTests: Int
    /// Files skipped, with the reason (binary, unreadable, too large...).
    public let skipped: [(path: String, reason: String)]

    /// The number of findings at or above `severity`.
    public func count(atLeast severity: Severity) -> Int { findings.filter { $0.severity >= severity }.count }
}
