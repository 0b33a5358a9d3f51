import Foundation
import WardenCLI
import WardenCore

/// Runs `warden` in-process and captures what it prints.
struct CLIRun {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLI {
    static func run(_ arguments: [String], stdin: String = "") async -> CLIRun {
        let out = Locked("")
        let err = Locked("")
        let io = CommandIO(
            writeOut: { text in out.withLock { $0 += text } },
            writeErr: { text in err.withLock { $0 += text } },
            readStdin: { Data(stdin.utf8) })
        let status = await WardenCLI.main(arguments: arguments, io: io)
        return CLIRun(status: status, stdout: out.current, stderr: err.current)
    }

    /// `Tests/WardenCryptoTests/Fixtures/<name>`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WardenCryptoTests/Fixtures/\(name)").path
    }
}
