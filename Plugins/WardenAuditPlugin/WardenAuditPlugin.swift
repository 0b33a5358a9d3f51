import Foundation
import PackagePlugin

/// `swift package warden-audit [PATH] [warden audit options]`: runs `warden audit` on the package (or PATH,
/// relative to the package) and fails the command when findings reach `--fail-on`.
///
/// ```sh
/// swift package warden-audit                                  # text report of the whole package
/// swift package warden-audit Sources --format sarif --fail-on error
/// swift package warden-audit --format sarif > warden.sarif    # the report goes to standard output
/// ```
@main
struct WardenAuditPlugin: CommandPlugin {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "warden")
        let package = context.package.directoryURL
        var rest = arguments
        // The first argument names the folder when it does not start with '-'.
        var target = package
        if let first = rest.first, !first.hasPrefix("-") {
            target = first.hasPrefix("/") ? URL(fileURLWithPath: first) : package.appendingPathComponent(first)
            rest.removeFirst()
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["audit", target.path] + rest
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1: throw Failed(description: "warden audit: findings at or above --fail-on")
        default: throw Failed(description: "warden audit failed (exit \(process.terminationStatus))")
        }
    }
}
