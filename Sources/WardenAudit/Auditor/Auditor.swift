import Dispatch
import Foundation
import WardenCore

/// Audits a source tree: Swift and Objective-C files and property lists, in parallel, with suppressions,
/// a baseline and vendored folders skipped.
///
/// ```swift
/// let report = try Auditor(options: AuditOptions()).audit(root: "MyApp")
/// for finding in report.findings { print(finding.file, finding.line, finding.rule.id) }
/// ```
public struct Auditor: Sendable {
    /// What the auditor skips and how it reports progress.
    public let options: AuditOptions

    /// An auditor with `options` (vendored folders skipped, no baseline, no progress by default).
    public init(options: AuditOptions = AuditOptions()) { self.options = options }

    /// Why an audit could not run: `unreadable_path` (the tree is not there) or `invalid_baseline` (a baseline that
    /// is not a warden baseline document). Both are the caller's configuration.
    public struct Failure: WardenError, Equatable {
        public let codeName: String
        public let reason: String
        public var failureKind: FailureKind { .misconfiguration }

        static func unreadablePath(_ reason: String) -> Failure { Failure(codeName: "unreadable_path", reason: reason) }
        static func invalidBaseline(_ reason: String) -> Failure {
            Failure(codeName: "invalid_baseline", reason: reason)
        }
    }

    /// Audits every file under `root` (a directory, or a single file).
    public func audit(root: String) throws -> AuditReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw Failure.unreadablePath("'\(root)' does not exist")
        }
        // A single file named on the command line is the tree: its real path decides where it is.
        let file = isDirectory.boolValue ? nil : DirectoryWalk.realPath(root)
        let base =
            isDirectory.boolValue
            ? URL(fileURLWithPath: root).standardizedFileURL.path
            : URL(fileURLWithPath: file ?? root).deletingLastPathComponent().path
        let paths = isDirectory.boolValue ? collect(base) : [URL(fileURLWithPath: file ?? root).lastPathComponent]
        return audit(base: base, relativePaths: paths)
    }

    /// Audits in-memory files (`path` → contents); used by tests.
    public func audit(files: [String: String]) -> AuditReport {
        audit(contents: files.mapValues { Array($0.utf8) })
    }

    /// Audits in-memory files given as bytes (`path` → contents): binary, non-UTF-8 and malformed inputs take the
    /// same paths as on disk. Used by tests and the fuzz target.
    public func audit(contents: [String: [UInt8]]) -> AuditReport {
        let inputs: [(String, DirectoryWalk.Read)] = contents.sorted { $0.key < $1.key }.map {
            ($0.key, .bytes($0.value))
        }
        return run(inputs.map { input in { input } }, count: inputs.count)
    }

    static let sourceExtensions: [String: SourceLanguage] = [
        "swift": .swift, "m": .objectiveC, "mm": .objectiveC, "h": .objectiveC,
    ]

    static let resourceExtensions: Set<String> = ["plist", "entitlements", "json", "xcconfig", "pbxproj"]

    /// The source and resource files under `base`, sorted, with vendored and hidden directories (and hidden files)
    /// left out.
    func collect(_ base: String) -> [String] {
        let excluded = options.excludedDirectories
        let paths = DirectoryWalk.files(
            under: base,
            descend: { name in !excluded.contains(name) && !name.hasPrefix(".") },
            keep: { name, path in
                if name.hasPrefix(".") { return false }
                let ext = Self.pathExtension(name)
                guard Self.sourceExtensions[ext] != nil || Self.resourceExtensions.contains(ext) else { return false }
                // Asset catalogues' Contents.json files describe images, not configuration.
                return ext != "json" || !FastText.contains(path, ".xcassets/")
            })
        return paths.sorted()
    }

    /// What follows the last `.` of a file name (`""` without one, or for a name that only starts with it), as
    /// `NSString.pathExtension` reads it.
    static func pathExtension(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < bytes.count else { return "" }
        return String(decoding: bytes[(dot + 1)...], as: UTF8.self)
    }

    /// Audits `relativePaths` under `base`. Nothing outside `base` is read: a file whose real path leaves it (a
    /// committed link to `/etc/hosts`, `/dev/zero`) is skipped (``DirectoryWalk/contents(of:root:maximumBytes:)``).
    func audit(base: String, relativePaths: [String]) -> AuditReport {
        let root = DirectoryWalk.realPath(base) ?? base
        let loaders: [@Sendable () -> (String, DirectoryWalk.Read)] = relativePaths.map { relative in
            {
                (
                    relative,
                    DirectoryWalk.contents(of: base + "/" + relative, root: root, maximumBytes: Self.maximumFileBytes)
                )
            }
        }
        return run(loaders, count: relativePaths.count)
    }

    struct FileOutcome: Sendable {
        var path: String
        var findings: [RawFinding] = []
        var facts = FileFacts()
        /// Test code: a test target or folder, or a file that imports a test framework.
        var isTest = false
        var suppressions: [Suppression] = []
        var lines = 0
        var skipped: String?
        /// ``AuditReport/steps`` of this file.
        var steps = 0
        /// What each finding line gives its fingerprint (source: ``SourceFile/fingerprintText(_:)``; plist: the line).
        var fingerprintTexts: [Int: String] = [:]
    }

    struct Suppression: Sendable {
        let rules: Set<String>
        let line: Int
        let endLine: Int
    }
}
