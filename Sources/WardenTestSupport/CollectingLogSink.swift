import WardenCore

/// Keeps every record in memory (tests, the demo's log check, the canary).
package final class CollectingLogSink: LogSink {
    private let records = Locked<[LogRecord]>([])

    package init() {}

    package func log(_ record: LogRecord) { records.withLock { $0.append(record) } }

    /// Everything logged so far.
    package var all: [LogRecord] { records.withLock { $0 } }

    /// Every record as one text line (message and metadata).
    package var lines: [String] {
        all.map { record in
            "\(record.level) \(record.category): \(record.message)"
                + record.metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        }
    }
}
