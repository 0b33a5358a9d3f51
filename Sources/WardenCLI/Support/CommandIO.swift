import Foundation
import WardenCore

/// Where a command reads and writes. The executable uses the process's streams; tests capture them.
package struct CommandIO: Sendable {
    package var writeOut: @Sendable (String) -> Void
    package var writeErr: @Sendable (String) -> Void
    package var readStdin: @Sendable () -> Data
    package var stdoutIsTerminal: Bool
    package var environment: [String: String]

    package init(
        writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
        readStdin: @escaping @Sendable () -> Data, stdoutIsTerminal: Bool = false, environment: [String: String] = [:]
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.readStdin = readStdin
        self.stdoutIsTerminal = stdoutIsTerminal
        self.environment = environment
    }

    /// The process's own standard streams.
    package static var process: CommandIO {
        CommandIO(
            writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeErr: { FileHandle.standardError.write(Data($0.utf8)) },
            readStdin: { FileHandle.standardInput.readDataToEndOfFile() },
            stdoutIsTerminal: isatty(1) == 1,
            environment: ProcessInfo.processInfo.environment)
    }

    /// `$XDG_<kind>_HOME`, else `$HOME/<fallback>`, both from this IO's environment (never the process's own
    /// home directory behind the caller's back, so an in-process run with a temporary `HOME` stays inside it).
    func directory(xdg: String, fallback: String) throws -> String {
        if let value = environment[xdg], !value.isEmpty { return value }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw CLIError.usage("neither $\(xdg) nor $HOME is set")
        }
        return home + "/" + fallback
    }

    func out(_ line: String) { writeOut(line + "\n") }
    func err(_ line: String) { writeErr(line + "\n") }
}

/// Exit statuses of the CLI contract (README, "The `warden` CLI").
package enum ExitCode {
    /// Success, accepted.
    package static let success: Int32 = 0
    /// The thing checked is rejected (invalid or malformed), findings, a signed-out session.
    package static let rejected: Int32 = 1
    /// The invocation is wrong: flags, unreadable files, invalid caller-supplied configuration.
    package static let usage: Int32 = 2
    /// A transient failure (offline, a timeout, 5xx, 429, a locked store): nothing was decided, try again later.
    /// sysexits' `EX_TEMPFAIL`, so scripts can tell "retry" from "signed out".
    package static let temporaryFailure: Int32 = 75
}

/// A failure that ends a command: printed as `warden: <code>: <message>` on stderr.
struct CLIError: Error {
    let code: String
    let message: String
    let exitCode: Int32

    static func usage(_ message: String, code: String = "usage") -> CLIError {
        CLIError(code: code, message: message, exitCode: ExitCode.usage)
    }

    static func rejected(_ code: String, _ message: String) -> CLIError {
        CLIError(code: code, message: message, exitCode: ExitCode.rejected)
    }

    /// A library error: rejected input is exit 1; a caller-supplied configuration problem exit 2; a transient failure
    /// exit 75.
    static func from(_ error: any WardenError, configuration: Bool = false) -> CLIError {
        CLIError(
            code: error.codeName, message: error.reason,
            exitCode: configuration
                ? ExitCode.usage : error.failureKind == .transient ? ExitCode.temporaryFailure : ExitCode.rejected)
    }
}
