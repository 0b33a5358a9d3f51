#if WARDEN_APPLE
    import os

    /// Sends Warden's records to the unified logging system (`os.Logger`). Compiled on Apple platforms only.
    ///
    /// The message is logged `.private` by default, as the metadata always is: every Warden message has been through
    /// the facade's redactor, but a redactor can miss a secret of a shape it does not know, and a `.public` message
    /// ends up in every sysdiagnose the user sends. `<private>` values are readable on a device attached to a Mac
    /// with logging enabled for the subsystem (a debugging profile), which is what development needs.
    /// `messages: .public` makes the (redacted) messages readable in Console everywhere — an explicit choice.
    ///
    /// ```swift
    /// WardenLog.configure(sink: OSLogSink(subsystem: "com.example.app"))
    /// ```
    public struct OSLogSink: LogSink {
        /// How the message part of a record is marked.
        public enum MessagePrivacy: Sendable, Equatable {
            /// `<private>` in logs collected without the subsystem's debugging profile (the default).
            case `private`
            /// Readable in every collected log; only the redactor stands between a secret and a sysdiagnose.
            case `public`
        }

        private let subsystem: String
        /// How messages are marked; metadata is always `.private`.
        public let messages: MessagePrivacy

        /// A sink logging under `subsystem` (your bundle identifier) with Warden's categories.
        public init(subsystem: String, messages: MessagePrivacy = .private) {
            self.subsystem = subsystem
            self.messages = messages
        }

        /// Logs `record` at its level under the record's category, its message marked as ``messages`` says and its
        /// metadata (`key=value` pairs) always `.private`.
        public func log(_ record: LogRecord) {
            let logger = Logger(subsystem: subsystem, category: record.category)
            let message = record.message
            let metadata = Self.metadata(record)
            // `privacy:` must be a compile-time constant (the os_log optimizer): one branch per choice.
            guard messages == .public else {
                switch record.level {
                case .debug: logger.debug("\(message, privacy: .private) \(metadata, privacy: .private)")
                case .info: logger.info("\(message, privacy: .private) \(metadata, privacy: .private)")
                case .notice: logger.notice("\(message, privacy: .private) \(metadata, privacy: .private)")
                case .warning: logger.warning("\(message, privacy: .private) \(metadata, privacy: .private)")
                case .error: logger.error("\(message, privacy: .private) \(metadata, privacy: .private)")
                }
                return
            }
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
