import Foundation
import Testing

@testable import WardenCLI

/// Help and usage come from the option declarations, and the parser enforces what the usage line says: a help
/// snapshot per command (a change to one is a change to the CLI contract), and the requirement rules fed bad
/// invocations.
@Suite("Help and usage from the declarations")
struct HelpTests {
    struct Command: Sendable, CustomTestStringConvertible {
        let path: [String]
        let configuration: CommandConfiguration
        var testDescription: String { (["warden"] + path).joined(separator: " ") }
        /// `HelpSnapshots/warden-jwt-verify.txt`.
        var snapshotName: String { (["warden"] + path).joined(separator: "-") + ".txt" }
    }

    /// Every command of the tree, groups included, depth first.
    static let commands: [Command] = collect(WardenCLI.root, path: [])

    static func collect(_ command: any CLICommand.Type, path: [String]) -> [Command] {
        let configuration = command.configuration
        return [Command(path: path, configuration: configuration)]
            + configuration.subcommands.flatMap { collect($0, path: path + [$0.configuration.name]) }
    }

    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpSnapshots")

    /// `WARDEN_RECORD_HELP=1 swift test --filter HelpTests` rewrites the snapshots; review the diff.
    @Test("help matches its snapshot", arguments: commands)
    func helpSnapshot(_ command: Command) async throws {
        let run = await CLI.run(command.path + ["--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let file = Self.snapshots.appendingPathComponent(command.snapshotName)
        if ProcessInfo.processInfo.environment["WARDEN_RECORD_HELP"] == "1" {
            try run.stdout.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try? String(contentsOf: file, encoding: .utf8)
        #expect(recorded != nil, "no snapshot \(command.snapshotName): record with WARDEN_RECORD_HELP=1")
        #expect(run.stdout == recorded, "help of '\(command.testDescription)' changed")
        let viaHelp = await CLI.run(["help"] + command.path)
        #expect(viaHelp.stdout == run.stdout, "'warden help ...' and '--help' differ")
    }

    @Test func everySnapshotBelongsToACommand() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.snapshots.path).filter {
            $0.hasSuffix(".txt")
        }
        let stale = Set(files).subtracting(Self.commands.map(\.snapshotName))
        #expect(stale.isEmpty, "snapshots of commands that no longer exist: \(stale.sorted())")
        #expect(files.count == Self.commands.count)
    }

    /// The usage line names every required option and group and nothing the declarations do not have; the
    /// hand-written part holds positionals only.
    @Test("usage line is the declarations", arguments: commands)
    func usageIsGenerated(_ command: Command) {
        let configuration = command.configuration
        #expect(!configuration.arguments.contains("--"), "options written by hand into the usage")
        let usage = Help.usage(configuration, path: ["warden"] + command.path)
        let named = Set(
            usage.split(separator: " ").filter { $0.hasPrefix("--") || $0.hasPrefix("(--") }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")).dropFirst(2) }.map(String.init))
        let declared = Set(configuration.options.map(\.name))
        #expect(named.isSubset(of: declared), "usage names undeclared options: \(named.subtracting(declared))")
        for option in configuration.options where option.requirement != .optional {
            #expect(usage.contains(option.synopsis), "'\(option.name)' is required but not in: \(usage)")
        }
        if configuration.subcommands.isEmpty {
            #expect(usage.contains("[options]") == configuration.options.contains { $0.requirement == .optional })
        } else {
            #expect(usage.hasSuffix(" <subcommand>"))
        }
    }

    static let parserOptions: [OptionSpec] = [
        .value("key", "FILE", "k").required(),
        .value("jwk", "FILE", "one").oneOf("keys"),
        .value("jwks", "FILE", "other").oneOf("keys"),
        .flag("verbose", "v"),
    ]

    @Test(arguments: [
        ([String](), "missing '--key'"),
        (["--jwk", "a"], "missing '--key'"),
        (["--key", "k"], "missing '--jwk' (or '--jwks')"),
        (["--key", "k", "--jwk", "a", "--jwks", "b"], "'--jwk' and '--jwks' exclude each other"),
        (["--verbose", "--jwks", "b"], "missing '--key'"),
    ])
    func theParserEnforcesRequirements(arguments: [String], message: String) {
        #expect {
            try ParsedArguments(arguments, options: Self.parserOptions)
        } throws: { error in
            (error as? CLIError)?.message == message && (error as? CLIError)?.exitCode == ExitCode.usage
        }
    }

    @Test func aCompleteInvocationParses() throws {
        let parsed = try ParsedArguments(["--key", "k", "--jwks", "b", "x"], options: Self.parserOptions)
        #expect(parsed.value("key") == "k" && parsed.value("jwks") == "b" && parsed.positionals == ["x"])
        #expect(
            Help.usage(
                CommandConfiguration(name: "t", abstract: "", arguments: "TOKEN", options: Self.parserOptions),
                path: ["warden", "t"]) == "warden t --key FILE (--jwk FILE | --jwks FILE) [options] TOKEN")
    }

    /// Through the real commands: a required option and a group, fed the bad invocation.
    @Test(arguments: [
        (["jwt", "verify", "--aud", "a", "x.y.z"], "warden: usage: missing '--jwks'\n"),
        (["jwt", "verify", "--jwks", "k.json", "x.y.z"], "warden: usage: missing '--aud' (or '--any-audience')\n"),
        (
            ["jwt", "verify", "--jwks", "k.json", "--aud", "a", "--any-audience", "x.y.z"],
            "warden: usage: '--aud' and '--any-audience' exclude each other\n"
        ),
        (
            ["siwa", "verify", "--jwks", "k.json", "--client-id", "c", "x"],
            "warden: usage: missing '--nonce' (or '--no-nonce')\n"
        ),
        (["jws", "verify", "x.y.z"], "warden: usage: missing '--jwk' (or '--jwks')\n"),
    ])
    func commandsRefuseWhatTheirUsageForbids(arguments: [String], stderr: String) async {
        let run = await CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr == stderr)
    }
}
