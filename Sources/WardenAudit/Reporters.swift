import Foundation

/// Renders an ``AuditReport`` as text, JSON or SARIF 2.1.0.
public enum AuditFormat: String, Sendable, CaseIterable {
    /// Plain text (``Reporter/text(_:colour:pathPrefix:)``), JSON (``Reporter/json(_:version:)``) and SARIF 2.1.0
    /// (``Reporter/sarif(_:version:rootURI:)``).
    case text, json, sarif
}

/// Renders reports: ``text(_:colour:)``, ``json(_:version:)``, ``sarif(_:version:rootURI:)``, and reads and
/// writes baseline documents.
public enum Reporter {
    /// `path:line:col: severity: message [RULE-ID]`, grouped by file, each related line of a finding as a
    /// `path:line:1: note:` under it; ANSI colours when `colour` is set.
    /// - Parameter pathPrefix: put before each file's path (the audited root, for tools that need absolute paths
    ///   such as Xcode's issue navigator); empty: paths relative to the root.
    public static func text(_ report: AuditReport, colour: Bool, pathPrefix: String = "") -> String {
        func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var lines: [String] = []
        var current: String?
        for finding in report.findings {
            if finding.file != current {
                if current != nil { lines.append("") }
                current = finding.file
                if colour { lines.append(paint(finding.file, "1")) }
            }
            let severity: String =
                switch finding.severity {
                case .error: paint("error", "1;31")
                case .warning: paint("warning", "1;33")
                case .note: paint("note", "1;36")
                }
            lines.append(
                "\(pathPrefix)\(finding.file):\(finding.line):\(finding.column): \(severity): \(finding.message) [\(finding.rule.id)]"
            )
            // Compiler-style notes for the lines the finding is also about (Xcode lists them under it).
            for line in finding.related {
                lines.append("\(pathPrefix)\(finding.file):\(line):1: \(paint("note", "1;36")): where it takes effect")
            }
            if colour { lines.append("    " + paint("fix: \(finding.rule.fix)", "2")) }
        }
        if !report.findings.isEmpty { lines.append("") }
        lines.append(summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    static func summary(_ report: AuditReport) -> String {
        let errors = report.findings.filter { $0.severity == .error }.count
        let warnings = report.findings.filter { $0.severity == .warning }.count
        let notes = report.findings.filter { $0.severity == .note }.count
        var text =
            "\(report.findings.count) finding(s): \(errors) error(s), \(warnings) warning(s), \(notes) note(s) in "
            + "\(report.filesScanned) file(s), \(report.linesScanned) line(s)"
        if report.suppressed > 0 { text += "; \(report.suppressed) suppressed" }
        if report.baselined > 0 { text += "; \(report.baselined) in the baseline" }
        if report.hiddenInTests > 0 { text += "; \(report.hiddenInTests) in test code not shown (--include-tests)" }
        if !report.skipped.isEmpty { text += "; \(report.skipped.count) skipped" }
        return text
    }

    /// The JSON document (the CLI's `--format json` contract):
    /// `{"tool":{"name","version"},"findings":[{"rule","severity","file","line","column","message","masvs","maswe","cwe"}],"summary":{...}}`;
    /// a finding about other lines of its file too lists them as `"related"`.
    public static func json(_ report: AuditReport, version: String) -> String {
        struct Document: Encodable {
            struct Tool: Encodable { let name: String, version: String }
            struct Item: Encodable {
                let rule: String, severity: String, file: String, line: Int, column: Int, message: String
                let masvs: [String], maswe: [String], cwe: [String], fix: String, fingerprint: String
                let inTestCode: Bool
                let related: [Int]?
                enum CodingKeys: String, CodingKey {
                    case rule, severity, file, line, column, message, masvs, maswe, cwe, fix, fingerprint, related
                    case inTestCode = "in_test_code"
                }
            }
            struct Skipped: Encodable { let file: String, reason: String }
            struct Summary: Encodable {
                let files: Int, lines: Int, findings: Int, errors: Int, warnings: Int, notes: Int, suppressed: Int
                let baselined: Int, hiddenInTests: Int, skipped: [Skipped]
                enum CodingKeys: String, CodingKey {
                    case files, lines, findings, errors, warnings, notes, suppressed, baselined, skipped
                    case hiddenInTests = "hidden_in_tests"
                }
            }
            let tool: Tool
            let findings: [Item]
            let summary: Summary
        }
        let count = { (severity: Severity) in report.findings.filter { $0.severity == severity }.count }
        return encode(
            Document(
                tool: .init(name: "warden", version: version),
                findings: report.findings.map {
                    .init(
                        rule: $0.rule.id, severity: $0.severity.rawValue, file: $0.file, line: $0.line,
                        column: $0.column, message: $0.message, masvs: $0.rule.masvs, maswe: $0.rule.maswe,
                        cwe: $0.rule.cwe, fix: $0.rule.fix, fingerprint: $0.fingerprint, inTestCode: $0.inTestCode,
                        related: $0.related.isEmpty ? nil : $0.related)
                },
                summary: .init(
                    files: report.filesScanned, lines: report.linesScanned, findings: report.findings.count,
                    errors: count(.error), warnings: count(.warning), notes: count(.note),
                    suppressed: report.suppressed, baselined: report.baselined, hiddenInTests: report.hiddenInTests,
                    skipped: report.skipped.map { .init(file: $0.path, reason: $0.reason) })))
    }

    /// SARIF 2.1.0 for GitHub code scanning: every rule with descriptions, help, level, `security-severity` and
    /// MASVS tags; results with repo-relative URIs under `%SRCROOT%` and stable partial fingerprints.
    public static func sarif(_ report: AuditReport, version: String, rootURI: String? = nil) -> String {
        let rules = Catalogue.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let descriptors: [SARIF.Rule] = rules.map { rule in
            let references = (rule.masvs + rule.maswe + rule.cwe).joined(separator: ", ")
            return SARIF.Rule(
                id: rule.id, name: rule.name.replacingOccurrences(of: " ", with: ""),
                shortDescription: .init(text: rule.name, markdown: nil),
                fullDescription: .init(text: rule.message, markdown: nil),
                help: .init(
                    text: "\(rule.message). Fix: \(rule.fix)" + (references.isEmpty ? "" : " (\(references))"),
                    markdown: "**\(rule.name)**\n\n\(rule.message).\n\n**Fix:** \(rule.fix)"
                        + (references.isEmpty ? "" : "\n\nOWASP: \(references)")),
                defaultConfiguration: .init(level: rule.severity.rawValue),
                properties: .init(
                    // `external/cwe/cwe-319` is the tag GitHub code scanning groups CWEs by.
                    tags: ["security"] + rule.masvs + rule.maswe
                        + rule.cwe.map { "external/cwe/" + $0.lowercased() },
                    securitySeverity: rule.severity.securitySeverity, precision: "high",
                    problemSeverity: rule.severity == .note ? "recommendation" : rule.severity.rawValue),
                relationships: rule.cwe.isEmpty
                    ? nil
                    : rule.cwe.map {
                        .init(
                            target: .init(id: String($0.dropFirst(4)), toolComponent: .init(name: "CWE")),
                            kinds: ["superset"])
                    })
        }
        let results: [SARIF.Result] = report.findings.map { finding in
            let related = finding.related.enumerated().map { id, line in
                SARIF.RelatedLocation(
                    id: id + 1,
                    physicalLocation: .init(
                        artifactLocation: .init(uri: uriPath(finding.file), uriBaseId: "%SRCROOT%"),
                        region: .init(startLine: line, startColumn: 1)),
                    message: .init(text: "where it takes effect"))
            }
            return SARIF.Result(
                ruleId: finding.rule.id, ruleIndex: ruleIndex[finding.rule.id] ?? 0, level: finding.severity.rawValue,
                message: .init(text: finding.message),
                locations: [
                    .init(
                        physicalLocation: .init(
                            artifactLocation: .init(uri: uriPath(finding.file), uriBaseId: "%SRCROOT%"),
                            region: .init(startLine: finding.line, startColumn: finding.column)))
                ],
                relatedLocations: related.isEmpty ? nil : related,
                partialFingerprints: ["wardenFingerprint/v1": finding.fingerprint])
        }
        let cwes = Set(rules.flatMap(\.cwe)).map { String($0.dropFirst(4)) }.sorted { Int($0)! < Int($1)! }
        let run = SARIF.Run(
            tool: .init(driver: .init(name: "warden", version: version, semanticVersion: version, rules: descriptors)),
            results: results, columnKind: "utf16CodeUnits",
            taxonomies: [
                .init(
                    name: "CWE", organization: "MITRE", informationUri: "https://cwe.mitre.org/",
                    taxa: cwes.map { .init(id: $0) })
            ],
            originalUriBaseIds: rootURI.map { ["%SRCROOT%": SARIF.ArtifactLocation(uri: $0, uriBaseId: nil)] })
        return encode(SARIF.Log(schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0", runs: [run]))
    }

    /// The SARIF 2.1.0 objects Warden writes.
    enum SARIF {
        struct Log: Encodable {
            let schema: String
            let version: String
            let runs: [Run]
            enum CodingKeys: String, CodingKey {
                case schema = "$schema"
                case version, runs
            }
        }
        struct Run: Encodable {
            let tool: Tool
            let results: [Result]
            let columnKind: String
            let taxonomies: [Taxonomy]
            let originalUriBaseIds: [String: ArtifactLocation]?
        }
        /// A taxonomy the rules relate to (CWE), with the taxa they name.
        struct Taxonomy: Encodable {
            let name: String, organization: String, informationUri: String
            let taxa: [Taxon]
        }
        struct Taxon: Encodable { let id: String }
        struct Relationship: Encodable {
            let target: Target
            let kinds: [String]
        }
        struct Target: Encodable {
            let id: String
            let toolComponent: ComponentReference
        }
        struct ComponentReference: Encodable { let name: String }
        struct Tool: Encodable { let driver: Driver }
        struct Driver: Encodable {
            let name: String, version: String, semanticVersion: String
            let rules: [Rule]
        }
        struct Text: Encodable {
            let text: String
            let markdown: String?
        }
        struct Message: Encodable { let text: String }
        struct Rule: Encodable {
            let id: String, name: String
            let shortDescription: Text, fullDescription: Text, help: Text
            let defaultConfiguration: Configuration
            let properties: Properties
            let relationships: [Relationship]?
        }
        struct Configuration: Encodable { let level: String }
        struct Properties: Encodable {
            let tags: [String]
            let securitySeverity: String
            let precision: String
            let problemSeverity: String
            enum CodingKeys: String, CodingKey {
                case tags, precision
                case securitySeverity = "security-severity"
                case problemSeverity = "problem.severity"
            }
        }
        struct Result: Encodable {
            let ruleId: String
            let ruleIndex: Int
            let level: String
            let message: Message
            let locations: [Location]
            let relatedLocations: [RelatedLocation]?
            let partialFingerprints: [String: String]
        }
        struct Location: Encodable { let physicalLocation: PhysicalLocation }
        struct RelatedLocation: Encodable {
            let id: Int
            let physicalLocation: PhysicalLocation
            let message: Message
        }
        struct PhysicalLocation: Encodable {
            let artifactLocation: ArtifactLocation
            let region: Region
        }
        struct ArtifactLocation: Encodable {
            let uri: String
            let uriBaseId: String?
        }
        struct Region: Encodable { let startLine: Int, startColumn: Int }
    }

    /// Pretty-printed JSON with sorted keys (JSONEncoder: JSONSerialization's key sorting is 25 times slower on
    /// Linux at tens of thousands of findings).
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A relative path as a URI reference (percent-encoded, `/` kept).
    static func uriPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? String($0)
        }.joined(separator: "/")
    }

    // MARK: Baselines

    /// A baseline document accepting every finding of `report`.
    public static func baseline(_ report: AuditReport) -> String {
        struct Entry: Encodable { let fingerprint: String, rule: String, file: String }
        struct Document: Encodable {
            let version: Int
            let findings: [Entry]
        }
        return encode(
            Document(
                version: 1,
                findings: report.findings.map { .init(fingerprint: $0.fingerprint, rule: $0.rule.id, file: $0.file) }))
    }

    /// The fingerprints of a baseline document.
    public static func fingerprints(baseline data: Data) throws -> Set<String> {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let findings = object["findings"] as? [[String: Any]]
        else { throw Auditor.Failure.invalidBaseline("the baseline is not a warden baseline document") }
        return Set(findings.compactMap { $0["fingerprint"] as? String })
    }
}
