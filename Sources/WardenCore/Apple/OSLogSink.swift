#if canImport(os)
    import os

    /// Sends Warden's records to the unified logging system (`os.Logger`). Compiled on Apple platforms only.
    ///
    /// Messages are already redacted by the facade; they are still logged with `privacy: .private` so that even a
    /// redaction miss stays out of logs collected from devices without the private-data profile.
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    public struct OSLogSink: LogSink {
        private let subsystem: String

        /// A sink logging under `subsystem` (your bundle identifier) with Warden's categories.
        public init(subsystem: String) { self.subsystem = subsystem }

        public func log(_ record: LogRecord) {
            let logger = Logger(subsystem: subsystem, category: record.category)
            let metadata = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: " ")
            switch record.level {
            case .debug: logger.debug("\(record.message, privacy: .private) \(metadata, privacy: .private)")
            case .info: logger.info("\(record.message, privacy: .private) \(metadata, privacy: .private)")
            case .notice: logger.notice("\(record.message, privacy: .private) \(metadata, privacy: .private)")
            case .warning: logger.warning("\(record.message, privacy: .private) \(metadata, privacy: .private)")
            case .error: logger.error("\(record.message, privacy: .private) \(metadata, privacy: .private)")
            }
        }
    }
#endif
