import Foundation
import Testing

@Suite("warden command tree")
struct CommandTreeTests {
    @Test func version() async {
        let run = await CLI.run(["--version"])
        #expect(run.status == 0 && run.stdout == "0.1.0\n")
    }

    @Test func unknownCommand() async {
        let run = await CLI.run(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.stderr == "warden: usage: unknown command 'frobnicate' for 'warden'\n")
    }

    @Test func groupWithoutSubcommandIsUsage() async {
        let run = await CLI.run(["bench"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("SUBCOMMANDS:"))
    }
}
