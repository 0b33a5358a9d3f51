import Foundation
import WardenAudit
import WardenCore

struct AuditCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "audit", abstract: "Find authentication-chain anti-patterns in an app's source tree.",
        arguments: "[PATH]",
        discussion: """
            Reads Swift, Objective-C, property lists, .entitlements, JSON, .xcconfig files and project.pbxproj's \
            INFOPLIST_KEY_ settings under PATH (default: the
            current directory); Pods, Carthage, .build, DerivedData and vendor are skipped. Findings in test code (test
            targets, *Tests/ folders, files importing XCTest, Testing, Quick or Nimble) are counted but only listed
            with --include-tests. Exit 0 when no finding reaches --fail-on,
            1 when one does, 2 on errors. Suppress one finding with '// warden:ignore RULE-ID reason' on its line or
            the line above; accept existing findings with --write-baseline once and --baseline afterwards.
            """,
        options: [
            .flag("json", "Print the report as JSON (as every command's --json; the same as --format json)."),
            .value("format", "F", "text (default), json or sarif (SARIF 2.1.0 for code scanning)."),
            .value("output", "FILE", "Write the report to FILE instead of standard output."),
            .value("fail-on", "LEVEL", "note, warning (default) or error."),
            .value("baseline", "FILE", "Ignore findings recorded in this baseline."),
            .value("write-baseline", "FILE", "Record the current findings as the baseline and exit 0."),
            .flag("include-vendored", "Also read Pods, Carthage, .build, DerivedData and vendor."),
            .flag("include-tests", "Also list findings in test code (counted apart by default)."),
            .flag("no-color", "No ANSI colours even on a terminal."),
            .flag(
                "absolute-paths",
                "Text format: absolute file paths, as Xcode's issue navigator needs (a Run Script build phase)."),
            .flag("rules", "List the rules and exit."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        if arguments.has("rules") {
            for rule in Catalogue.all {
                io.out(
                    "\(rule.id) [\(rule.severity.rawValue)] \(rule.name) — \((rule.masvs + rule.maswe + rule.cwe).joined(separator: ", "))"
                )
            }
            return ExitCode.success
        }
        if arguments.has("json"), let other = arguments.value("format"), other != "json" {
            throw CLIError.usage("--json and --format \(other) ask for two formats")
        }
        let formatName = arguments.has("json") ? "json" : arguments.value("format") ?? "text"
        guard let format = AuditFormat(rawValue: formatName) else {
            throw CLIError.usage("'--format' must be text, json or sarif")
        }
        if arguments.has("absolute-paths"), format != .text {
            throw CLIError.usage("--absolute-paths applies to the text report (SARIF and JSON carry their own paths)")
        }
        let failOnName = arguments.value("fail-on") ?? "warning"
        guard let failOn = Severity(rawValue: failOnName) else {
            throw CLIError.usage("'--fail-on' must be note, warning or error")
        }
        guard arguments.positionals.count <= 1 else { throw CLIError.usage("give at most one PATH") }
        let root = arguments.positionals.first ?? FileManager.default.currentDirectoryPath
        var options = AuditOptions()
        if arguments.has("include-vendored") { options.excludedDirectories = [".git"] }
        options.includeTests = arguments.has("include-tests")
        if let path = arguments.value("baseline") {
            do {
                options.baseline = try Reporter.fingerprints(baseline: try Input.file(path, io: io))
            } catch let error as CLIError {
                throw error
            } catch let error as any WardenError {
                throw CLIError.usage("'--baseline': \(error.reason)", code: "invalid_baseline")
            } catch {
                throw CLIError.usage("'--baseline': \(error)", code: "invalid_baseline")
            }
        }
        let showProgress = io.stdoutIsTerminal && format == .text && arguments.value("output") == nil
        if showProgress {
            let last = Locked(Date.distantPast)
            options.progress = { done, total in
                let now = Date()
                let due = last.withLock { previous -> Bool in
                    guard now.timeIntervalSince(previous) > 0.1 || done == total else { return false }
                    previous = now
                    return true
                }
                if due { io.writeErr("\rwarden audit: \(done)/\(total) files" + (done == total ? "\r\u{1B}[K" : "")) }
            }
        }
        let report: AuditReport
        do {
            report = try Auditor(options: options).audit(root: root)
        } catch let error as Auditor.Failure {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        for skipped in report.skipped { io.err("warden: note: skipped \(skipped.path): \(skipped.reason)") }
        if let path = arguments.value("write-baseline") {
            try write(Reporter.baseline(report), to: path)
            io.err("warden: baseline of \(report.findings.count) finding(s) written to \(path)")
            return ExitCode.success
        }
        let rootURI = URL(fileURLWithPath: root).standardizedFileURL.absoluteString
        let text: String =
            switch format {
            case .text:
                Reporter.text(
                    report,
                    colour: io.stdoutIsTerminal && !arguments.has("no-color") && io.environment["NO_COLOR"] == nil,
                    pathPrefix: arguments.has("absolute-paths")
                        ? URL(fileURLWithPath: root).standardizedFileURL.path + "/" : "")
            case .json: Reporter.json(report, version: WardenCLI.version)
            case .sarif:
                Reporter.sarif(
                    report, version: WardenCLI.version, rootURI: rootURI.hasSuffix("/") ? rootURI : rootURI + "/")
            }
        if let path = arguments.value("output") {
            try write(text, to: path)
        } else {
            io.writeOut(text)
        }
        return report.count(atLeast: failOn) > 0 ? ExitCode.rejected : ExitCode.success
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.usage("cannot write '\(path)'", code: "unwritable_file")
        }
    }
}
