import Dispatch
import Foundation
import WardenCore

/// The scan: files read and audited in parallel, one outcome each, merged in path order.
extension Auditor {
    func run(_ loaders: [@Sendable () -> (String, DirectoryWalk.Read)], count: Int) -> AuditReport {
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
                let (path, read) = loaders[index]()
                let outcome = Self.scan(path: path, read: read, names: names)
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
        // A finding in test code does not stand for the app: a secret only a test writes confirms nothing.
        let facts = files.map { file -> FileFacts in
            guard file.isTest else { return file.facts }
            var facts = file.facts
            facts.flags = FileScan.withoutFindingFlags(facts.flags)
            facts.findingsCount = false
            return facts
        }
        let project = RuleSet.finish(ProjectFacts(files: facts))
        for (file, finding) in project.findings { files[file].findings.append(finding) }
        // Suppressions, fingerprints, baseline.
        var findings: [Finding] = []
        var hiddenInTests = 0
        var suppressed = 0
        var baselined = 0
        var steps = 0
        for file in files {
            var occurrences: [String: Int] = [:]
            var seen = Set<String>()
            var suppressions = SuppressionTable(file.suppressions)
            steps += file.steps + file.findings.count
            for raw in file.findings.sorted(by: { ($0.line, $0.column, $0.rule.id) < ($1.line, $1.column, $1.rule.id) })
            where seen.insert("\(raw.rule.id)@\(raw.line):\(raw.column)").inserted {
                if raw.rule.id != Catalogue.invalidSuppression.id,
                    suppressions.suppresses(raw.rule.id, onLine: raw.line)
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
                        fingerprint: fingerprint, inTestCode: file.isTest, related: raw.related))
            }
            steps += suppressions.steps
        }
        findings.sort { ($0.file, $0.line, $0.column, $0.rule.id) < ($1.file, $1.line, $1.column, $1.rule.id) }
        var report = AuditReport(
            findings: findings, filesScanned: files.filter { $0.skipped == nil }.count,
            linesScanned: files.reduce(0) { $0 + $1.lines }, suppressed: suppressed, baselined: baselined,
            hiddenInTests: hiddenInTests,
            skipped: files.compactMap { file in file.skipped.map { (file.path, $0) } })
        report.steps = steps
        return report
    }

    static let maximumFileBytes = 8 << 20

    static func scan(path: String, read: DirectoryWalk.Read, names: NameCache) -> FileOutcome {
        var outcome = FileOutcome(path: path)
        let bytes: [UInt8]
        switch read {
        case .bytes(let read): bytes = read
        case .skipped(let why):
            outcome.skipped = why
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
            outcome.steps = resource.propertyList?.steps ?? 0
            outcome.findings = report.findings
            outcome.facts = report.facts
            // Lines are split only for a suppression or a finding's fingerprint: most resources (localisation JSON,
            // asset catalogues) have neither, and splitting megabytes into Characters was most of their cost.
            if resource.propertyList?.isBinary != true,
                !outcome.findings.isEmpty || Self.contains(bytes, Self.suppressionMarker)
            {
                let lines = String(decoding: bytes, as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() where FastText.contains(String(line), "warden:ignore") {
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
        outcome.steps = scan.steps
        outcome.findings = scan.findings
        outcome.facts = scan.facts
        if !outcome.isTest { outcome.isTest = TestCode.importsTestFramework(scan) }
        outcome.lines = file.tokens.last.map { Int($0.line) } ?? 0
        outcome.lines = max(outcome.lines, file.comments.last.map { Int($0.endLine) } ?? 0)
        for comment in file.comments where FastText.contains(comment.text, "warden:ignore") {
            outcome.addSuppression(comment.text, line: Int(comment.line), endLine: Int(comment.endLine))
        }
        for finding in outcome.findings {
            outcome.fingerprintTexts[finding.line] = file.fingerprintText(Int32(finding.line))
        }
        return outcome
    }

    /// FNV-1a 64 (fingerprints only: stable and fast, not a security function).
    static let suppressionMarker = Array("warden:ignore".utf8)

    /// Whether `bytes` contain `marker`, ASCII letters in either case (as the per-line test matches them).
    static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard let first = marker.first, bytes.count >= marker.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
        var index = 0
        let last = bytes.count - marker.count
        while index <= last {
            if lower(bytes[index]) == first {
                var offset = 1
                while offset < marker.count, lower(bytes[index + offset]) == marker[offset] { offset += 1 }
                if offset == marker.count { return true }
            }
            index += 1
        }
        return false
    }

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
