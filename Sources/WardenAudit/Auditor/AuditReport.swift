import Dispatch
import Foundation
import WardenCore

/// The result of an audit.
public struct AuditReport: Sendable {
    /// The findings after suppressions and the baseline, sorted by file, line, column and rule.
    public let findings: [Finding]
    /// Files scanned, not counting the ones ``AuditReport/skipped``.
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
    /// The work the audit did, counted, not timed: the token visits of every source file's scans
    /// (``FileScan/steps``), the bytes and key look-ups of property lists, and the suppression look-ups. The
    /// linear-scan tests hold it to a few steps per input byte or token.
    package var steps = 0

    /// The number of findings at or above `severity`.
    public func count(atLeast severity: Severity) -> Int { findings.filter { $0.severity >= severity }.count }
}
