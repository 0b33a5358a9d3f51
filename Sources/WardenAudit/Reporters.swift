import Foundation

/// Renders an ``AuditReport`` as text, JSON or SARIF 2.1.0.
public enum AuditFormat: String, Sendable, CaseIterable {
    case text, json, sarif
}

/// Renders reports: ``text(_:colour:)``, ``json(_:version:)``, ``sarif(_:version:rootURI:)``, and reads and
/// writes baseline documents.
public enum Reporter {
    /// `path:line:col: severity: message [RULE-ID]`, grouped by file; ANSI colours when `colour` is set.
    public static func text(_ report: AuditReport, colour: Bool) -> String {
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
                "\(finding.file):\(finding.line):\(finding.column): \(severity): \(finding.message) [\(finding.rule.id)]"
            )
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
        if !report.skipped.isEmpty { text += "; \(report.skipped.count) skipped" }
        return text
    }

    /// The JSON document of DESIGN.md:
    /// `{"tool":{"name","version"},"findings":[{"rule","severity","file","line","column","message","masvs"}],"summary":{...}}`.
    public static func json(_ report: AuditReport, version: String) -> String {
        let findings: [[String: Any]] = report.findings.map { finding in
            [
                "rule": finding.rule.id, "severity": finding.severity.rawValue, "file": finding.file,
                "line": finding.line, "column": finding.column, "message": finding.message,
                "masvs": finding.rule.masvs, "maswe": finding.rule.maswe, "fix": finding.rule.fix,
                "fingerprint": finding.fingerprint,
            ]
        }
        let document: [String: Any] = [
            "tool": ["name": "warden", "version": version], "findings": findings,
            "summary": [
                "files": report.filesScanned, "lines": report.linesScanned, "findings": report.findings.count,
                "errors": report.findings.filter { $0.severity == .error }.count,
                "warnings": report.findings.filter { $0.severity == .warning }.count,
                "notes": report.findings.filter { $0.severity == .note }.count, "suppressed": report.suppressed,
                "baselined": report.baselined,
                "skipped": report.skipped.map { ["file": $0.path, "reason": $0.reason] },
            ],
        ]
        return serialize(document)
    }

    /// SARIF 2.1.0 for GitHub code scanning: every rule with descriptions, help, level, `security-severity` and
    /// MASVS tags; results with repo-relative URIs under `%SRCROOT%` and stable partial fingerprints.
    public static func sarif(_ report: AuditReport, version: String, rootURI: String? = nil) -> String {
        let rules = Catalogue.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let ruleObjects: [[String: Any]] = rules.map { rule in
            let references = (rule.masvs + rule.maswe).joined(separator: ", ")
            return [
                "id": rule.id, "name": rule.name.replacingOccurrences(of: " ", with: ""),
                "shortDescription": ["text": rule.name], "fullDescription": ["text": rule.message],
                "help": [
                    "text": "\(rule.message). Fix: \(rule.fix)" + (references.isEmpty ? "" : " (\(references))"),
                    "markdown": "**\(rule.name)**\n\n\(rule.message).\n\n**Fix:** \(rule.fix)"
                        + (references.isEmpty ? "" : "\n\nOWASP: \(references)"),
                ],
                "defaultConfiguration": ["level": rule.severity.rawValue],
                "properties": [
                    "tags": ["security"] + rule.masvs + rule.maswe, "security-severity": rule.severity.securitySeverity,
                    "precision": "high",
                    "problem.severity": rule.severity.rawValue == "note" ? "recommendation" : rule.severity.rawValue,
                ],
            ]
        }
        let results: [[String: Any]] = report.findings.map { finding in
            [
                "ruleId": finding.rule.id, "ruleIndex": ruleIndex[finding.rule.id] ?? 0,
                "level": finding.severity.rawValue, "message": ["text": finding.message],
                "locations": [
                    [
                        "physicalLocation": [
                            "artifactLocation": ["uri": uriPath(finding.file), "uriBaseId": "%SRCROOT%"],
                            "region": ["startLine": finding.line, "startColumn": finding.column],
                        ]
                    ]
                ],
                "partialFingerprints": ["wardenFingerprint/v1": finding.fingerprint],
            ]
        }
        var run: [String: Any] = [
            "tool": [
                "driver": [
                    "name": "warden", "version": version, "semanticVersion": version, "rules": ruleObjects,
                ]
            ],
            "results": results, "columnKind": "utf16CodeUnits",
        ]
        if let rootURI { run["originalUriBaseIds"] = ["%SRCROOT%": ["uri": rootURI]] }
        return serialize([
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run],
        ])
    }

    /// A relative path as a URI reference (percent-encoded, `/` kept).
    static func uriPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? String($0)
        }.joined(separator: "/")
    }

    static func serialize(_ object: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: Baselines

    /// A baseline document accepting every finding of `report`.
    public static func baseline(_ report: AuditReport) -> String {
        serialize([
            "version": 1,
            "findings": report.findings.map { ["fingerprint": $0.fingerprint, "rule": $0.rule.id, "file": $0.file] },
        ])
    }

    /// The fingerprints of a baseline document.
    public static func fingerprints(baseline data: Data) throws -> Set<String> {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let findings = object["findings"] as? [[String: Any]]
        else { throw Auditor.Failure(description: "the baseline is not a warden baseline document") }
        return Set(findings.compactMap { $0["fingerprint"] as? String })
    }
}
