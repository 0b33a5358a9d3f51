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
        let base =
            isDirectory.boolValue
            ? URL(fileURLWithPath: root).standardizedFileURL.path
            : URL(fileURLWithPath: root).deletingLastPathComponent().standardizedFileURL.path
        let paths = isDirectory.boolValue ? collect(base) : [URL(fileURLWithPath: root).lastPathComponent]
        return audit(base: base, relativePaths: paths)
    }

    /// Audits in-memory files (`path` → contents); used by tests.
    public func audit(files: [String: String]) -> AuditReport {
        audit(contents: files.mapValues { Array($0.utf8) })
    }

    /// Audits in-memory files given as bytes (`path` → contents): binary, non-UTF-8 and malformed inputs take the
    /// same paths as on disk. Used by tests and the fuzz target.
    public func audit(contents: [String: [UInt8]]) -> AuditReport {
        let inputs: [(String, [UInt8]?)] = contents.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return run(inputs.map { input in { input } }, count: inputs.count)
    }

    static let sourceExtensions: [String: SourceLanguage] = [
        "swift": .swift, "m": .objectiveC, "mm": .objectiveC, "h": .objectiveC,
    ]

    static let resourceExtensions: Set<String> = ["plist", "entitlements", "json", "xcconfig", "pbxproj"]

    private func collect(_ base: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if options.excludedDirectories.contains(name) || (name.hasPrefix(".") && name != ".") {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    enumerator.skipDescendants()
                    continue
                }
                if name.hasPrefix(".") { continue }
            }
            let ext = (name as NSString).pathExtension
            if Self.sourceExtensions[ext] != nil || Self.resourceExtensions.contains(ext) {
                // Asset catalogues' Contents.json files describe images, not configuration.
                if ext == "json", path.contains(".xcassets/") { continue }
                paths.append(path)
            }
        }
        return paths.sorted()
    }

    private func audit(base: String, relativePaths: [String]) -> AuditReport {
        let loaders: [@Sendable () -> (String, [UInt8]?)] = relativePaths.map { relative in
            {
                let data = FileManager.default.contents(atPath: base + "/" + relative)
                return (relative, data.map { Array($0) })
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
        /// What each finding line gives its fingerprint (source: ``SourceFile/fingerprintText(_:)``; plist: the line).
        var fingerprintTexts: [Int: String] = [:]
    }

    struct Suppression: Sendable {
        let rules: Set<String>
        let line: Int
        let endLine: Int
    }

    private func run(_ loaders: [@Sendable () -> (String, [UInt8]?)], count: Int) -> AuditReport {
        let outcomes = Locked([FileOutcome?](repeating: nil, count: count))
        let done = Locked(0)
        let progress = options.progress
        // One worker per core, each taking the next file and keeping its own cache of what names mean (names repeat
        // across the files of an app).
        let next = Locked(0)
        let workers = max(1, min(count, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let names = NameCache()
            while true {
                let index = next.withLock { value -> Int in
                    value += 1
                    return value - 1
                }
                guard index < count else { break }
                let (path, bytes) = loaders[index]()
                let outcome = Self.scan(path: path, bytes: bytes, names: names)
                outcomes.withLock { $0[index] = outcome }
                if let progress {
                    let finished = done.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    progress(finished, count)
                }
            }
        }
        var files = outcomes.current.compactMap { $0 }
        // Project-wide rules.
        let project = RuleSet.finish(ProjectFacts(files: files.map(\.facts)))
        for (file, finding) in project.findings { files[file].findings.append(finding) }
        // Suppressions, fingerprints, baseline.
        var findings: [Finding] = []
        var hiddenInTests = 0
        var suppressed = 0
        var baselined = 0
        for file in files {
            var occurrences: [String: Int] = [:]
            var seen = Set<String>()
            for raw in file.findings.sorted(by: { ($0.line, $0.column, $0.rule.id) < ($1.line, $1.column, $1.rule.id) })
            where seen.insert("\(raw.rule.id)@\(raw.line):\(raw.column)").inserted {
                if raw.rule.id != Catalogue.invalidSuppression.id,
                    file.suppressions.contains(where: {
                        $0.rules.contains(raw.rule.id) && ($0.line == raw.line || $0.endLine + 1 == raw.line)
                    })
                {
                    suppressed += 1
                    continue
                }
                let lineText = (file.fingerprintTexts[raw.line] ?? "").trimmingCharacters(in: .whitespaces)
                let key = "\(raw.rule.id)|\(file.path)|\(lineText)"
                let occurrence = occurrences[key, default: 0]
                occurrences[key] = occurrence + 1
                let fingerprint = Self.fnv1a("\(key)|\(occurrence)")
                if options.baseline.contains(fingerprint) {
                    baselined += 1
                    continue
                }
                if file.isTest, !options.includeTests {
                    hiddenInTests += 1
                    continue
                }
                findings.append(
                    Finding(
                        rule: raw.rule, file: file.path, line: raw.line, column: raw.column, message: raw.message,
                        fingerprint: fingerprint, inTestCode: file.isTest))
            }
        }
        findings.sort { ($0.file, $0.line, $0.column, $0.rule.id) < ($1.file, $1.line, $1.column, $1.rule.id) }
        return AuditReport(
            findings: findings, filesScanned: files.filter { $0.skipped == nil }.count,
            linesScanned: files.reduce(0) { $0 + $1.lines }, suppressed: suppressed, baselined: baselined,
            hiddenInTests: hiddenInTests,
            skipped: files.compactMap { file in file.skipped.map { (file.path, $0) } })
    }

    static let maximumFileBytes = 8 << 20

    private static func scan(path: String, bytes: [UInt8]?, names: NameCache) -> FileOutcome {
        var outcome = FileOutcome(path: path)
        guard let bytes else {
            outcome.skipped = "unreadable"
            return outcome
        }
        let ext = (path as NSString).pathExtension
        outcome.isTest = TestCode.isTestPath(path)
        if resourceExtensions.contains(ext) {
            guard bytes.count <= maximumFileBytes else {
                outcome.skipped = "larger than 8 MiB"
                return outcome
            }
            let resource: ResourceFile
            switch ResourceFile.read(path: path, bytes: bytes) {
            case .success(let file): resource = file
            case .failure(let unreadable):
                outcome.skipped = unreadable.reason
                return outcome
            }
            outcome.lines = bytes.reduce(into: 1) { count, byte in if byte == 10 { count += 1 } }
            let report = ResourceReport()
            RuleSet.run(resource, report)
            outcome.findings = report.findings
            outcome.facts = report.facts
            if resource.propertyList?.isBinary != true {
                let lines = String(decoding: bytes, as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() where line.contains("warden:ignore") {
                    let comment = line.replacingOccurrences(of: "<!--", with: "").replacingOccurrences(
                        of: "-->", with: ""
                    )
                    .replacingOccurrences(of: "#", with: "")
                    outcome.addSuppression(String(comment), line: number + 1, endLine: number + 1)
                }
                for finding in outcome.findings where finding.line <= lines.count {
                    outcome.fingerprintTexts[finding.line] = String(lines[finding.line - 1])
                }
            }
            return outcome
        }
        guard let language = sourceExtensions[ext] else {
            outcome.skipped = "not a source file"
            return outcome
        }
        guard bytes.count <= maximumFileBytes else {
            outcome.skipped = "larger than 8 MiB"
            return outcome
        }
        if bytes.prefix(8192).contains(0) {
            outcome.skipped = "binary"
            return outcome
        }
        guard UTF8Validation.isValid(bytes) else {
            outcome.skipped = "not UTF-8"
            return outcome
        }
        let file = SourceFile(path: path, bytes: bytes, language: language)
        let scan = FileScan(file: file, names: names)
        RuleSet.run(scan)
        outcome.findings = scan.findings
        outcome.facts = scan.facts
        if !outcome.isTest { outcome.isTest = TestCode.importsTestFramework(scan) }
        outcome.lines = file.tokens.last.map { Int($0.line) } ?? 0
        outcome.lines = max(outcome.lines, file.comments.last.map { Int($0.endLine) } ?? 0)
        for comment in file.comments where comment.text.contains("warden:ignore") {
            outcome.addSuppression(comment.text, line: Int(comment.line), endLine: Int(comment.endLine))
        }
        for finding in outcome.findings {
            outcome.fingerprintTexts[finding.line] = file.fingerprintText(Int32(finding.line))
        }
        return outcome
    }

    /// FNV-1a 64 (fingerprints only: stable and fast, not a security function).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Auditor.FileOutcome {
    /// Parses `warden:ignore RULE[,RULE] reason`; a suppression without a known rule or a reason is itself a
    /// finding and suppresses nothing.
    mutating func addSuppression(_ text: String, line: Int, endLine: Int) {
        // The directive starts the comment (`// warden:ignore ...`, `/* warden:ignore ... */`, `<!-- ... -->`), as
        // swiftlint:disable does; prose that mentions it is not a directive.
        let content = text.drop {
            $0 == "/" || $0 == "*" || $0 == "<" || $0 == "!" || $0 == "-" || $0 == " " || $0 == "\t"
        }
        guard content.hasPrefix("warden:ignore"), let range = text.range(of: "warden:ignore") else { return }
        let rest = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
        let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
        let ids = Set((parts.first ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        let reason =
            parts.count > 1
            ? parts[1].replacingOccurrences(of: "*/", with: "").trimmingCharacters(in: .whitespaces) : ""
        let unknown = ids.filter { Catalogue.rule($0) == nil }
        guard !ids.isEmpty, unknown.isEmpty, !reason.isEmpty else {
            let problem =
                ids.isEmpty || ids == [""]
                ? "warden:ignore without a rule id"
                : !unknown.isEmpty
                    ? "warden:ignore names an unknown rule: \(unknown.sorted().joined(separator: ", "))"
                    : "warden:ignore \(ids.sorted().joined(separator: ",")) needs a reason"
            findings.append(RawFinding(rule: Catalogue.invalidSuppression, line: line, column: 1, message: problem))
            return
        }
        suppressions.append(Auditor.Suppression(rules: ids, line: line, endLine: endLine))
    }
}

/// What the auditor skips and how it reports progress.
public struct AuditOptions: Sendable {
    /// Folder names never entered (vendored code and build output).
    public var excludedDirectories: Set<String> = AuditOptions.vendored
    /// Fingerprints of accepted findings (from a baseline file).
    public var baseline: Set<String> = []
    /// Whether findings in test code (test targets, `*Tests/` folders, XCTest and Swift Testing files) are
    /// listed; by default they are counted in ``AuditReport/hiddenInTests`` only.
    public var includeTests = false
    /// Called after each file with (done, total); used for the TTY progress line.
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// The folders skipped by default.
    public static let vendored: Set<String> = [
        "Pods", "Carthage", ".build", "DerivedData", "vendor", "Vendor", "Vendors", "ThirdParty", "third_party",
        "node_modules", ".git", "build", "SourcePackages",
    ]

    public init() {}
}

/// The result of an audit.
public struct AuditReport: Sendable {
    /// The findings after suppressions and the baseline, sorted by file, line, column and rule.
    public let findings: [Finding]
    public let filesScanned: Int
    /// Lines read in the files scanned.
    public let linesScanned: Int
    /// Findings silenced by `warden:ignore` comments.
    public let suppressed: Int
    /// Findings accepted by the baseline.
    public let baselined: Int
    /// Findings in test code left out because ``AuditOptions/includeTests`` is off.
    public let hiddenInTests: Int
    /// Files skipped, with the reason (binary, unreadable, too large...).
    public let skipped: [(path: String, reason: String)]

    /// The number of findings at or above `severity`.
    public func count(atLeast severity: Severity) -> Int { findings.filter { $0.severity >= severity }.count }
}
