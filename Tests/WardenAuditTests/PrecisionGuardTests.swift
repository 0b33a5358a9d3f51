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

/// The dataflow on adversarial shapes: deep nesting, long chains of variables, many sinks. Each must finish (the
/// test has no timer: a hang fails it by never returning) and keep its answers.
@Suite("Audit dataflow limits")
struct DataflowLimitTests {
    @Test func nestedDecodersAndLongChainsStayBounded() {
        // 40 nested base64 decoders: evaluated once each, not 2^40 times.
        let nested =
            "func f(token: String) {\n let parts = token.split(separator: \".\")\n let d = "
            + String(repeating: "Data(base64Encoded: ", count: 40) + "parts[1]" + String(repeating: ")", count: 40)
            + "\n if d.role == \"admin\" { }\n}\n"
        #expect(Auditor().audit(files: ["A.swift": nested]).findings.map(\.rule.id) == ["jwt-unverified-decision"])
        // A chain of 5,000 variables from a secret to a print: followed to the depth limit, never recursing further.
        var chain = "func g(password: String) {\n let v0 = password\n"
        for index in 1..<5_000 {
            chain += " let v\(index) = v\(index - 1)\n"
            if index == 10 { chain += " print(v10)\n" }  // line 13
        }
        chain += " print(v4999)\n}\n"
        let report = Auditor().audit(files: ["B.swift": chain])
        #expect(report.findings.map(\.line) == [13])  // v10 is within the depth limit; v4999 is beyond it
        // 20,000 logs of a self-referential variable: linear.
        let loop =
            "func h(token: String) {\n var t = token\n" + String(repeating: " t = t + t\n print(t)\n", count: 10_000)
            + "}\n"
        #expect(Auditor().audit(files: ["C.swift": loop]).findings.count == 10_000)
        // self.self.self... in a comparison: walked, not recursed.
        let selves = "func k() -> Bool { a == " + String(repeating: "self.", count: 50_000) + "signature }\n"
        _ = Auditor().audit(files: ["D.swift": selves])
    }
}
