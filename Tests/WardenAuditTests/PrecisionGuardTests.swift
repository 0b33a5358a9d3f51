import Foundation
import Testing

@testable import WardenAudit

/// Code written by people who know these APIs must give no findings: Warden's own sources (with their reasoned
/// `warden:ignore` comments) and the toolchain's standard-library interfaces, which declare every
/// `password`/`token`/`random`/`signature` name the standard library has.
@Suite("Audit precision guards")
struct PrecisionGuardTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func wardensOwnSourcesGiveNoFindings() throws {
        let report = try Auditor().audit(root: Self.packageRoot.appendingPathComponent("Sources").path)
        #expect(report.filesScanned > 150)
        #expect(
            report.findings.isEmpty, "\(report.findings.map { "\($0.file):\($0.line) \($0.rule.id): \($0.message)" })")
        #expect(report.suppressed > 0 && report.hiddenInTests == 0)
    }

    /// The toolchain that runs the tests: `swift` on PATH, its `lib/swift/{linux,host}` interfaces read as Swift.
    static func standardLibraryInterfaces() -> [String: [UInt8]] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        var files: [String: [UInt8]] = [:]
        for directory in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let lib = swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("lib/swift")
            for platform in ["linux", "host"] {
                let base = lib.appendingPathComponent(platform)
                guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { continue }
                while let relative = enumerator.nextObject() as? String {
                    guard relative.hasSuffix(".swiftinterface"), !relative.contains("private"),
                        let data = FileManager.default.contents(atPath: base.appendingPathComponent(relative).path)
                    else { continue }
                    files["\(platform)/\(relative).swift"] = Array(data)
                }
            }
            if !files.isEmpty { break }
        }
        return files
    }

    @Test func standardLibraryInterfacesGiveNoFindings() {
        let files = Self.standardLibraryInterfaces()
        #expect(files.count >= 20, "the toolchain's .swiftinterface files were not found")
        var options = AuditOptions()
        options.includeTests = true  // XCTest's and Testing's own interfaces count too
        let report = Auditor(options: options).audit(contents: files)
        #expect(report.linesScanned > 50_000)
        #expect(
            report.findings.isEmpty, "\(report.findings.map { "\($0.file):\($0.line) \($0.rule.id): \($0.message)" })")
    }
}
