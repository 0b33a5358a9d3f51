import Foundation
import PackagePlugin

/// `swift package warden-audit [PATH] [warden audit options]`: runs `warden audit` on the package (or PATH,
/// relative to the package) and fails the command when findings reach `--fail-on`. In Xcode the same plugin runs on
/// an app project (*File › Packages › Warden Audit*, or right-click the project › *Warden Audit*), over the project's
/// folder.
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
        try Self.audit(tool: try context.tool(named: "warden").url, root: context.package.directoryURL, arguments)
    }

    /// Runs `warden audit` under `root` (or the folder the first argument names, relative to it).
    static func audit(tool: URL, root: URL, _ arguments: [String]) throws {
        var rest = arguments
        // The first argument names the folder when it does not start with '-'.
        var target = root
        if let first = rest.first, !first.hasPrefix("-") {
            target = first.hasPrefix("/") ? URL(fileURLWithPath: first) : root.appendingPathComponent(first)
            rest.removeFirst()
        }
        let process = Process()
        process.executableURL = tool
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

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    /// The plugin on an Xcode project (not a package): the project's folder is audited, with absolute paths so that
    /// Xcode links each finding to its line.
    extension WardenAuditPlugin: XcodeCommandPlugin {
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            // The text report with absolute paths, unless another format or the flag itself was asked for.
            let text = !arguments.contains { $0 == "--json" || $0 == "--absolute-paths" || $0.hasPrefix("--format") }
            let extra = text ? ["--absolute-paths"] : []
            try Self.audit(
                tool: try context.tool(named: "warden").url, root: context.xcodeProject.directoryURL,
                arguments + extra)
        }
    }
#endif
