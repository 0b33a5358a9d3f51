/// Describes a command for dispatch and help, like swift-argument-parser's `CommandConfiguration`.
struct CommandConfiguration: Sendable {
    let name: String
    let abstract: String
    var usage: String = ""
    var discussion: String = ""
    var options: [OptionSpec] = []
    var subcommands: [any CLICommand.Type] = []
}

/// A `warden` command. Leaf commands implement `run`; groups list subcommands.
protocol CLICommand: Sendable {
    static var configuration: CommandConfiguration { get }
    /// Runs with parsed arguments; returns the exit status.
    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32
}

extension CLICommand {
    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        io.writeOut(Help.text(for: self, path: [configuration.name]))
        return ExitCode.usage
    }
}

enum Help {
    static func text(for command: any CLICommand.Type, path: [String]) -> String {
        let configuration = command.configuration
        var lines: [String] = ["OVERVIEW: \(configuration.abstract)", ""]
        let usage =
            configuration.usage.isEmpty
            ? path.joined(separator: " ") + (configuration.subcommands.isEmpty ? " [options]" : " <subcommand>")
            : path.joined(separator: " ") + " " + configuration.usage
        lines += ["USAGE: \(usage)", ""]
        if !configuration.discussion.isEmpty { lines += [configuration.discussion, ""] }
        let options = configuration.options + [.flag("help", "Show help information.")]
        lines.append("OPTIONS:")
        for option in options {
            let left = "  --\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + option.help)
        }
        if !configuration.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            for sub in configuration.subcommands {
                let left = "  \(sub.configuration.name)"
                lines.append(left.padding(toLength: 30, withPad: " ", startingAt: 0) + sub.configuration.abstract)
            }
            lines += ["", "  See '\(path.joined(separator: " ")) <subcommand> --help' for details."]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
