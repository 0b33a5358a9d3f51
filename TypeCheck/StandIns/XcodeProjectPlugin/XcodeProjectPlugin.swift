// Stand-in of the XcodeProjectPlugin API that Plugins/WardenAuditPlugin uses (Xcode 16 / Swift 6 PackagePlugin),
// with Apple's documented signatures, so that the plugin's `#if canImport(XcodeProjectPlugin)` half is type-checked
// on Linux by scripts/typecheck-apple against the toolchain's real PackagePlugin module. Never linked or run.
//
// Apple docs (XcodeProjectPlugin): `XcodeCommandPlugin.performCommand(context:arguments:) throws`;
// `XcodePluginContext.xcodeProject`, `.pluginWorkDirectoryURL`, `tool(named:) throws -> PluginContext.Tool`;
// `XcodeProject.displayName`, `.directoryURL` (Xcode 16; `directory: Path` before, now deprecated).
import Foundation
import PackagePlugin

public protocol XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws
}

public struct XcodePluginContext {
    public var xcodeProject: XcodeProject { fatalError("stand-in") }
    public var pluginWorkDirectoryURL: URL { fatalError("stand-in") }
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("stand-in") }
}

public struct XcodeProject {
    public var displayName: String { fatalError("stand-in") }
    public var directoryURL: URL { fatalError("stand-in") }
}
