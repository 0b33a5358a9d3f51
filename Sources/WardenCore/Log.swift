import Foundation

/// Severity of a log record.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// The levels, from least to most severe: `debug` < `info` < `notice` < `warning` < `error`.
    case debug, info, notice, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// One log record, already redacted.
public struct LogRecord: Sendable {
    /// The severity.
    public let level: LogLevel
    /// The Warden component, for example `session` or `oauth`.
    public let category: String
    /// The message after redaction.
    public let message: String
    /// Key-value context after redaction.
    public let metadata: [String: String]
    /// Where the call was made.
    public let file: String
    /// The line of the call.
    public let line: Int
}

/// Where Warden's log records go. Implement it to bridge to swift-log, a crash reporter or a file.
///
/// Records reach a sink only after redaction, at every level including debug.
public protocol LogSink: Sendable {
    /// Receives one redacted record.
    func log(_ record: LogRecord)
}

/// Warden's logging facade: every log call in Warden goes through ``WardenLogger`` and through ``Redactor``.
///
/// ```swift
/// WardenLog.configure(sink: StderrLogSink(), minimumLevel: .info)
/// let log = WardenLogger(category: "session")
/// log.info("refreshed", metadata: ["url": tokenURL.absoluteString])   // query secrets are redacted
/// ```
///
/// Thread-safety: configuration is lock-protected; a task-local sink (`withSink(_:operation:)`) overrides the
/// global one, which is how tests capture logs without racing each other.
public enum WardenLog {
    struct Configuration: Sendable {
        var sink: any LogSink = NoLogSink()
        var minimumLevel: LogLevel = .info
        var redactor: Redactor = .standard
    }

    static let configuration = Locked(Configuration())
    @TaskLocal static var taskSink: (any LogSink)?

    /// Sets the process-wide sink, level and redactor.
    public static func configure(sink: any LogSink, minimumLevel: LogLevel = .info, redactor: Redactor = .standard) {
        configuration.withLock { $0 = Configuration(sink: sink, minimumLevel: minimumLevel, redactor: redactor) }
    }

    /// Runs `operation` with every Warden log record of this task (and its child tasks) going to `sink`, at
    /// every level.
    public static func withSink<T>(_ sink: any LogSink, operation: () async throws -> T) async rethrows -> T {
        try await $taskSink.withValue(sink, operation: operation)
    }

    /// The synchronous variant of ``withSink(_:operation:)``.
    public static func withSink<T>(_ sink: any LogSink, operation: () throws -> T) rethrows -> T {
        try $taskSink.withValue(sink, operation: operation)
    }
}

/// A logger for one Warden component.
public struct WardenLogger: Sendable {
    /// The component name.
    public let category: String

    /// A logger for `category`.
    public init(category: String) { self.category = category }

    /// Logs `message` (an autoclosure: not built when the level is off) after redaction.
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, metadata: [String: String] = [:],
        file: String = #fileID, line: Int = #line
    ) {
        let configuration = WardenLog.configuration.current
        let sink: any LogSink
        if let taskSink = WardenLog.taskSink {
            sink = taskSink
        } else {
            guard level >= configuration.minimumLevel else { return }
            sink = configuration.sink
        }
        let redactor = configuration.redactor
        var safeMetadata: [String: String] = [:]
        for (key, value) in metadata {
            safeMetadata[key] =
                redactor.names.contains(Array(key.utf8)) || redactor.headers.contains(Array(key.utf8))
                ? "<redacted>" : redactor.redact(value)
        }
        sink.log(
            LogRecord(
                level: level, category: category, message: redactor.redact(message()), metadata: safeMetadata,
                file: file, line: line))
    }

    /// Logs `message` at ``LogLevel/debug``, as ``WardenLogger/log(_:_:metadata:file:line:)`` does.
    public func debug(
        _ message: @autoclosure () -> String, metadata: [String: String] = [:], file: String = #fileID,
        line: Int = #line
    ) {
        log(.debug, message(), metadata: metadata, file: file, line: line)
    }
    /// Logs `message` at ``LogLevel/info``, as ``WardenLogger/log(_:_:metadata:file:line:)`` does.
    public func info(
        _ message: @autoclosure () -> String, metadata: [String: String] = [:], file: String = #fileID,
        line: Int = #line
    ) {
        log(.info, message(), metadata: metadata, file: file, line: line)
    }
    /// Logs `message` at ``LogLevel/notice``, as ``WardenLogger/log(_:_:metadata:file:line:)`` does.
    public func notice(
        _ message: @autoclosure () -> String, metadata: [String: String] = [:], file: String = #fileID,
        line: Int = #line
    ) {
        log(.notice, message(), metadata: metadata, file: file, line: line)
    }
    /// Logs `message` at ``LogLevel/warning``, as ``WardenLogger/log(_:_:metadata:file:line:)`` does.
    public func warning(
        _ message: @autoclosure () -> String, metadata: [String: String] = [:], file: String = #fileID,
        line: Int = #line
    ) {
        log(.warning, message(), metadata: metadata, file: file, line: line)
    }
    /// Logs `message` at ``LogLevel/error``, as ``WardenLogger/log(_:_:metadata:file:line:)`` does.
    public func error(
        _ message: @autoclosure () -> String, metadata: [String: String] = [:], file: String = #fileID,
        line: Int = #line
    ) {
        log(.error, message(), metadata: metadata, file: file, line: line)
    }
}

/// Discards everything (the default until an app configures a sink).
public struct NoLogSink: LogSink {
    /// A sink that discards every record.
    public init() {}
    public func log(_ record: LogRecord) {}
}

/// Writes `warden[category] level: message key=value` lines to standard error.
public struct StderrLogSink: LogSink {
    /// A sink that writes each record as one line to standard error.
    public init() {}
    public func log(_ record: LogRecord) {
        let metadata = record.metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        FileHandle.standardError.write(
            Data("warden[\(record.category)] \(record.level): \(record.message)\(metadata)\n".utf8))
    }
}
