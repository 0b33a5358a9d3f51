import Foundation
import WardenCore

/// The `warden` command line: dispatch, help, version and the error format (`warden: <code>: <message>`).
package enum WardenCLI {
    /// The tool's version.
    package static let version = "0.1.0"

    static let root: any CLICommand.Type = RootCommand.self

    /// Runs `warden` with `arguments` (without the program name) and returns the exit status.
    package static func main(arguments: [String], io: CommandIO = .process) async -> Int32 {
        var command = root
        var path = ["warden"]
        var rest = arguments[...]
        if rest.first == "--version" {
            io.out(version)
            return ExitCode.success
        }
        if rest.first == "help" {  // `warden help jwt verify` == `warden jwt verify --help`
            rest = rest.dropFirst() + ["--help"]
        }
        while let next = rest.first,
            let sub = command.configuration.subcommands.first(where: { $0.configuration.name == next })
        {
            command = sub
            path.append(next)
            rest = rest.dropFirst()
        }
        if rest.contains("--help") || rest.contains("-h") {
            io.writeOut(Help.text(for: command, path: path))
            return ExitCode.success
        }
        if !command.configuration.subcommands.isEmpty {
            if let unknown = rest.first {
                return report(CLIError.usage("unknown command '\(unknown)' for '\(path.joined(separator: " "))'"), io)
            }
            io.writeErr(Help.text(for: command, path: path))
            return ExitCode.usage
        }
        do {
            let parsed = try ParsedArguments(Array(rest), options: command.configuration.options)
            return try await command.run(parsed, io: io)
        } catch let error as CLIError {
            return report(error, io)
        } catch let error as any WardenError {
            return report(CLIError.from(error), io)
        } catch {
            return report(CLIError(code: "internal", message: "\(type(of: error))", exitCode: ExitCode.usage), io)
        }
    }

    static func report(_ error: CLIError, _ io: CommandIO) -> Int32 {
        // Messages can echo arguments (an unknown flag, a path); the redactor keeps secrets out of stderr.
        io.err("warden: \(error.code): \(Redactor.standard.redact(error.message))")
        return error.exitCode
    }
}

struct RootCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "warden",
        abstract: "Audit and exercise every link of an app's authentication chain.",
        discussion: """
            Exit codes: 0 success or accepted; 1 rejected (invalid or malformed input, findings, signed out);
            2 usage (bad flags, unreadable files, invalid configuration); 75 a transient failure (offline, a
            timeout, 5xx: retry). Errors go to stderr as
            'warden: <code>: <message>'. Use '-' as a TOKEN/URL/FILE argument to read standard input.
            """,
        options: [.flag("version", "Show the version.")],
        subcommands: [
            DemoCommand.self, ProviderCommand.self, DiscoverCommand.self, LoginCommand.self, TokenCommand.self,
            LogoutCommand.self,
            JWTCommand.self,
            JWSCommand.self,
            PKCECommand.self, OAuthCommand.self, OAuth1Command.self, PinCommand.self, StoreCommand.self,
            SealedCommand.self,
            PasskeyCommand.self, DPoPCommand.self, SIWACommand.self, AuditCommand.self, BenchCommand.self,
        ])
}
