#if WARDEN_APPLE
    import os

    /// Sends Warden's records to the unified logging system (`os.Logger`). Compiled on Apple platforms only.
    ///
    /// The message is logged `.public`: every Warden message has already been through the facade's redactor
    /// (tokens, codes, secrets in URLs, headers and JSON are masked before a sink sees them), so marking it private
    /// would only make device logs unreadable (`<private>`) without protecting anything. The metadata values are
    /// logged `.private`: they are caller-supplied and not redacted by construction.
    ///
    /// ```swift
    /// WardenLog.configure(sink: OSLogSink(subsystem: "com.example.app"))
    /// ```
    public struct OSLogSink: LogSink {
        private let subsystem: String

        /// A sink logging under `subsystem` (your bundle identifier) with Warden's categories.
        public init(subsystem: String) { self.subsystem = subsystem }

        public func log(_ record: LogRecord) {
            let logger = Logger(subsystem: subsystem, category: record.category)
            let message = record.message
            let metadata = Self.metadata(record)
            switch record.level {
            case .debug: logger.debug("\(message, privacy: .public) \(metadata, privacy: .private)")
            case .info: logger.info("\(message, privacy: .public) \(metadata, privacy: .private)")
            case .notice: logger.notice("\(message, privacy: .public) \(metadata, privacy: .private)")
            case .warning: logger.warning("\(message, privacy: .public) \(metadata, privacy: .private)")
            case .error: logger.error("\(message, privacy: .public) \(metadata, privacy: .private)")
            }
        }

        /// `key=value` pairs sorted by key (portable; tested on Linux through ``LogRecord``).
        static func metadata(_ record: LogRecord) -> String {
            record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }
#endif
