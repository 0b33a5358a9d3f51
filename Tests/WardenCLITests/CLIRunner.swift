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
    /// A fresh temporary home for one run (or a test's several runs): `HOME`, `XDG_CONFIG_HOME` and
    /// `XDG_STATE_HOME` all point inside it, so no CLI test reads or writes the real home directory.
    static func temporaryHome() -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("warden-home-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }

    static func environment(home: String) -> [String: String] {
        precondition(home != NSHomeDirectory() && home.hasPrefix(FileManager.default.temporaryDirectory.path))
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state"]
    }

    static func run(_ arguments: [String], stdin: String = "", home: String? = nil) async -> CLIRun {
        let out = Locked("")
        let err = Locked("")
        let io = CommandIO(
            writeOut: { text in out.withLock { $0 += text } },
            writeErr: { text in err.withLock { $0 += text } },
            readStdin: { Data(stdin.utf8) }, environment: environment(home: home ?? temporaryHome()))
        let status = await WardenCLI.main(arguments: arguments, io: io)
        return CLIRun(status: status, stdout: out.current, stderr: err.current)
    }

    /// `Tests/WardenCryptoTests/Fixtures/<name>`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WardenCryptoTests/Fixtures/\(name)").path
    }
}
