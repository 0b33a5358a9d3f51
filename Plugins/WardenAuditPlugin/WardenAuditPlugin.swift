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
        try Self.audit(
            tool: try context.tool(named: "warden").url, root: context.package.directoryURL,
            Self.withoutXcodeTargets(arguments))
    }

    /// Xcode passes `--target NAME` (one per selected target) to every command plugin it runs; the audit reads the
    /// whole folder, so they are removed rather than handed to `warden audit`, which refuses unknown options.
    static func withoutXcodeTargets(_ arguments: [String]) -> [String] {
        var extractor = ArgumentExtractor(arguments)
        _ = extractor.extractOption(named: "target")
        return extractor.remainingArguments
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
            let arguments = Self.withoutXcodeTargets(arguments)
            // The text report with absolute paths, unless another format or the flag itself was asked for.
            let text = !arguments.contains { $0 == "--json" || $0 == "--absolute-paths" || $0.hasPrefix("--format") }
            let extra = text ? ["--absolute-paths"] : []
            try Self.audit(
                tool: try context.tool(named: "warden").url, root: context.xcodeProject.directoryURL,
                arguments + extra)
        }
    }
#endif
