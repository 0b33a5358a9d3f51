/// Describes a command for dispatch and help, like swift-argument-parser's `CommandConfiguration`.
struct CommandConfiguration: Sendable {
    let name: String
    let abstract: String
    /// The positional arguments as the usage line shows them (`TOKEN`, `FILE...`, `[PATH]`). Options are never
    /// written here: the usage line lists them from ``options`` (required ones, groups, then `[options]`).
    var arguments: String = ""
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
        lines += ["USAGE: " + usage(configuration, path: path), ""]
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

    /// The usage line, from the declarations: the path, each required option, each group as `(--a A | --b B)`,
    /// `[options]` when any option is optional, then the positional arguments.
    static func usage(_ configuration: CommandConfiguration, path: [String]) -> String {
        var parts = path
        if !configuration.subcommands.isEmpty { return (parts + ["<subcommand>"]).joined(separator: " ") }
        var groups: Set<String> = []
        for option in configuration.options {
            switch option.requirement {
            case .optional: continue
            case .required: parts.append(option.synopsis)
            case .oneOf(let group):
                guard groups.insert(group).inserted else { continue }
                let members = configuration.options.filter { $0.requirement == option.requirement }
                parts.append("(" + members.map(\.synopsis).joined(separator: " | ") + ")")
            }
        }
        if configuration.options.contains(where: { $0.requirement == .optional }) { parts.append("[options]") }
        if !configuration.arguments.isEmpty { parts.append(configuration.arguments) }
        return parts.joined(separator: " ")
    }
}
