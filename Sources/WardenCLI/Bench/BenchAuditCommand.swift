import Foundation
import WardenAudit

struct BenchAuditCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "audit", abstract: "Lines per second of warden audit on a generated app (or PATH), with peak memory.",
        arguments: "[PATH]",
        discussion: """
            Without PATH, writes a synthetic app of --lines Swift lines (default 200000) in files of about 500 lines
            (view controllers, networking, storage, SwiftUI views, comments, multi-line strings, a few findings) to a
            temporary folder, audits it --runs times (default 3) and reports the best run. With --labels FILE (PATH
            required; tab-separated path, line, expect|twin, rule id), also prints recall, precision and the share of
            correct-code twins flagged, per rule and in total, with every missed label and unlabelled finding, instead of
            the speed; --line-tolerance N lets a finding of the rule up to N lines from a label answer it (one finding
            per label; a twin is flagged by a finding that near), for labels of real apps that name one line of a
            statement spanning several. --one-scope N instead generates one function with N SecItemAdd calls, each
            on a query built just before it (the case a per-call rescan of the scope made quadratic): compare N and 4N.
            """,
        options: [
            .value("lines", "N", "Lines to generate (default 200000)."),
            .value("one-scope", "N", "Generate one function with N SecItemAdd call sites instead of an app."),
            .value("runs", "N", "Audits to time (default 3)."),
            .value("labels", "FILE", "Score the findings on PATH against these labels."),
            .value(
                "line-tolerance", "N",
                "With --labels: a finding up to N lines (0-10, default 0) from a label answers it."),
            .flag("json", "Print JSON."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        if let warning = Bench.buildWarning { io.err(warning) }
        let lines = try arguments.integer("lines", range: 1_000...10_000_000) ?? 200_000
        let runs = try arguments.integer("runs", range: 1...20) ?? 3
        var root = arguments.positionals.first
        if root != nil, arguments.value("lines") != nil {
            throw CLIError.usage("'--lines' sizes the generated app; it does not apply to PATH")
        }
        var labels: Labels?
        if let path = arguments.value("labels") {
            guard root != nil else { throw CLIError.usage("'--labels' needs the PATH the labels describe") }
            do {
                labels = try Labels(tsv: String(decoding: try Input.file(path, io: io), as: UTF8.self))
            } catch let error as Labels.Malformed {
                throw CLIError.usage("'--labels': \(error.description)", code: "invalid_labels")
            }
        }
        let tolerance = try arguments.integer("line-tolerance", range: 0...10)
        if tolerance != nil, labels == nil {
            throw CLIError.usage("'--line-tolerance' applies to the scoring of '--labels'")
        }
        let oneScope = try arguments.integer("one-scope", range: 1...1_000_000)
        if oneScope != nil, root != nil || arguments.value("lines") != nil {
            throw CLIError.usage("'--one-scope' generates its own file; it takes neither PATH nor '--lines'")
        }
        var generated: URL?
        if root == nil {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "warden-bench-audit-\(UUID().uuidString)")
            if let oneScope {
                try generateOneScope(calls: oneScope, into: directory)
            } else {
                try generate(lines: lines, into: directory)
            }
            generated = directory
            root = directory.path
        }
        defer { if let generated { try? FileManager.default.removeItem(at: generated) } }
        var best = Double.infinity
        var report: AuditReport?
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            report = try Auditor().audit(root: root!)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        guard let report else { return ExitCode.usage }
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Glibc)
            let peakMB = Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
        #else
            let peakMB = Double(usage.ru_maxrss) / 1_048_576  // bytes on Darwin
        #endif
        let linesPerSecond = Double(report.linesScanned) / best
        if let labels {
            let score = LabelScore(report: report, labels: labels, tolerance: tolerance ?? 0)
            printScore(score, json: arguments.has("json"), io: io)
            return ExitCode.success
        }
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "files": report.filesScanned, "lines": report.linesScanned,
                    "seconds": (best * 1000).rounded() / 1000,
                    "lines_per_second": Int(linesPerSecond), "findings": report.findings.count,
                    "peak_rss_mb": (peakMB * 10).rounded() / 10, "cores": ProcessInfo.processInfo.activeProcessorCount,
                ]))
        } else {
            io.out(
                "\(report.linesScanned) lines in \(report.filesScanned) files: \(Bench.format(best, decimals: 3)) s (best of \(runs)), "
                    + "\(Int(linesPerSecond)) lines/s on \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                    + "\(report.findings.count) findings, peak RSS \(Bench.format(peakMB)) MB")
        }
        return ExitCode.success
    }

    /// Recall, precision and twins flagged per rule and in total; then what was missed and what was not labelled.
    static func printScore(_ score: LabelScore, json: Bool, io: CommandIO) {
        func percent(_ value: Double) -> Double { (value * 1000).rounded() / 10 }
        func object(_ counts: LabelScore.Counts) -> [String: Any] {
            [
                "labelled": counts.labelled, "found": counts.found, "false_positives": counts.falsePositives,
                "twins": counts.twins, "twins_flagged": counts.twinsFlagged, "recall": percent(counts.recall),
                "precision": percent(counts.precision), "twin_rate": percent(counts.twinRate),
            ]
        }
        if json {
            io.out(
                JSONOutput.string([
                    "rules": score.rules.mapValues(object), "total": object(score.total), "missed": score.missed,
                    "unexpected": score.unexpected,
                ]))
            return
        }
        func row(_ name: String, _ counts: LabelScore.Counts) -> String {
            name.padding(toLength: 36, withPad: " ", startingAt: 0)
                + "\(counts.found)/\(counts.labelled)".padding(toLength: 9, withPad: " ", startingAt: 0)
                + "recall \(Bench.format(percent(counts.recall)))%  precision \(Bench.format(percent(counts.precision)))%  "
                + "twins flagged \(counts.twinsFlagged)/\(counts.twins)"
        }
        for rule in score.rules.keys.sorted() { io.out(row(rule, score.rules[rule]!)) }
        io.out(row("total", score.total))
        for key in score.missed { io.out("missed: \(key)") }
        for key in score.unexpected { io.out("not labelled: \(key)") }
    }

    /// Writes about `lines` lines of varied Swift.
    static func generate(lines: Int, into directory: URL) throws {
        let template = sampleFile
        let perFile = template.split(separator: "\n", omittingEmptySubsequences: false).count
        let files = max(1, (lines + perFile - 1) / perFile)
        for index in 0..<files {
            let folder = directory.appendingPathComponent("Module\(index % 20)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let text = template.replacingOccurrences(of: "NN", with: String(index))
            try Data(text.utf8).write(to: folder.appendingPathComponent("Feature\(index).swift"))
        }
    }

    static let sampleFile: String = {
        var parts: [String] = [
            """
            import Foundation
            import SwiftUI

            /// Feature NN: a view model, its networking and its storage.
            /* A block comment with /* nesting */ and kSecAttrAccessibleAlways that must not count. */
            final class FeatureNNViewModel: ObservableObject {
                @Published var items: [ItemNN] = []
                @Published var isLoading = false
                @AppStorage("featureNN.theme") var theme = "dark"
                private let session: URLSession
                private let baseURL = URL(string: "https://api.example.com/v2/featureNN")!

                init(session: URLSession = .shared) { self.session = session }
            """
        ]
        for method in 0..<20 {
            parts.append(
                """

                    // MARK: - Section \(method)

                    func load\(method)(page: Int, filter: String?) async throws -> [ItemNN] {
                        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
                        components.queryItems = [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "q", value: filter)]
                        let (data, response) = try await session.data(from: components.url!)
                        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
                            throw FeatureError.badStatus((response as? HTTPURLResponse)?.statusCode ?? -1)
                        }
                        let decoded = try JSONDecoder().decode([ItemNN].self, from: data)
                        let summary = "loaded \\(decoded.count) items for page \\(page) of \\(filter ?? "all")"
                        print(summary)
                        let note = \"\"\"
                            Section \(method): \\(decoded.first?.title ?? "none")
                            multi-line text with "quotes" and a URL https://example.com/\(method)
                            \"\"\"
                        _ = note
                        return decoded.filter { $0.score > Double(\(method)) * 0.5 && !$0.title.isEmpty }
                            .sorted { lhs, rhs in lhs.score == rhs.score ? lhs.title < rhs.title : lhs.score > rhs.score }
                    }
                """)
        }
        parts.append(
            """

                func persist(token: String) {
                    UserDefaults.standard.set(Date(), forKey: "featureNN.lastSync")
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
                    _ = (query, token.count)
                    print("synced \\(token)")  // a finding: the token in the logs
                    let legacy = URL(string: "http://legacy.example.com/featureNN")  // a finding: cleartext
                    _ = legacy
                }
            }

            struct ItemNN: Decodable, Identifiable { let id: Int; let title: String; let score: Double }

            enum FeatureError: Error { case badStatus(Int) }

            struct FeatureNNView: View {
                @StateObject var model = FeatureNNViewModel()
                var body: some View {
                    List(model.items) { item in
                        HStack { Text(item.title).font(.headline); Spacer(); Text(String(format: "%.1f", item.score)) }
                    }
                    .task { _ = try? await model.load0(page: 1, filter: nil) }
                }
            }

            """)
        return parts.joined(separator: "\n")
    }()

    /// One Swift file whose one function makes `calls` Keychain writes, each of a query built just before it.
    static func generateOneScope(calls: Int, into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var text = "import Security\n\nfunc storeAll(_ data: Data) {\n"
        for number in 0..<calls {
            text += """
                    let query\(number): [String: Any] = [kSecClass as String: kSecClassGenericPassword, \
                kSecAttrAccount as String: "a\(number)", kSecValueData as String: data]
                    SecItemAdd(query\(number) as CFDictionary, nil)

                """
        }
        text += "}\n"
        try Data(text.utf8).write(to: directory.appendingPathComponent("OneScope.swift"))
    }
}
