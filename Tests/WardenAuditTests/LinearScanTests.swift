import Testing

@testable import WardenAudit

/// The rules that look around a call site (the query a `SecItemAdd` names, the object a Core Data insert returns,
/// the trust a challenge handler passes, the callers of a hand-written JWT decoder) must not rescan their scope per
/// call site: one long generated function with thousands of them has to cost a bounded number of token visits per
/// token (``FileScan/steps``), and four times the call sites four times the visits. Work is counted, not timed.
@Suite("Audit scans are linear")
struct LinearScanTests {
    /// A family: the function's parameters, one call site (`#` is its number) and what each call site reports.
    struct Family: CustomTestStringConvertible, Sendable {
        let name: String
        let header: String
        let site: String
        var footer = "}"
        /// Declarations after the function, one per call site (`#` is its number).
        var perSite = ""
        let rule: String
        /// Findings of `rule` for `count` call sites.
        let expected: @Sendable (Int) -> Int
        var testDescription: String { name }

        func source(_ count: Int) -> String {
            var lines = [header]
            for number in 0..<count { lines.append(site.replacingOccurrences(of: "#", with: String(number))) }
            lines.append(footer)
            for number in 0..<count where !perSite.isEmpty {
                lines.append(perSite.replacingOccurrences(of: "#", with: String(number)))
            }
            return lines.joined(separator: "\n")
        }
    }

    static let families: [Family] = [
        Family(
            name: "SecItemAdd of a query built in the function",
            header: "import Security\nfunc storeAll(_ data: Data) {",
            site: """
                let query#: [String: Any] = [kSecClass as String: kSecClassGenericPassword, \
                kSecAttrAccount as String: "a#", kSecValueData as String: data]
                SecItemAdd(query# as CFDictionary, nil)
                """,
            rule: "keychain-accessibility-missing", expected: { $0 }),
        Family(
            name: "SecItemAdd of a parameter (not judged)",
            header: "import Security\nfunc storeAll(_ query: CFDictionary) {", site: "SecItemAdd(query, nil)",
            rule: "keychain-accessibility-missing", expected: { _ in 0 }),
        Family(
            name: "SecItemAdd of queries from a builder function each",
            header: "import Security\nfunc storeAll(_ data: Data) {",
            site: "var query# = base#(data)\nSecItemAdd(query# as CFDictionary, nil)",
            perSite: "func base#(_ d: Data) -> [String: Any] { [kSecClass as String: d] }",
            rule: "keychain-accessibility-missing", expected: { $0 }),
        Family(
            name: "Core Data objects given a password",
            header: "func save(_ context: NSManagedObjectContext, password: String) {",
            site: "let account# = Account(context: context)\naccount#.password = password",
            footer: "try? context.save() }", rule: "secret-in-file", expected: { $0 }),
        Family(
            name: "one Core Data name declared again in each block",
            header: "func save(_ context: NSManagedObjectContext, password: String) {",
            site: "do {\nlet account = Account(context: context)\naccount.password = password\n}",
            footer: "try? context.save() }", rule: "secret-in-file", expected: { $0 }),
        Family(
            name: "setValue on local dictionaries (not Core Data)",
            header: "func fill(password: String) {",
            site: "let data# = NSMutableDictionary()\ndata#.setValue(password, forKey: \"password\")",
            rule: "secret-in-file", expected: { _ in 0 }),
        Family(
            name: "challenge handlers passing the trust",
            header: """
                func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge, \
                completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                """,
            site: "completionHandler(.useCredential, URLCredential(trust: challenge.protectionSpace.serverTrust!))",
            rule: "trust-all-certificates", expected: { _ in 1 }),
        Family(
            name: "hand-written JWT decoders and the decisions of their callers",
            header: "",
            site: """
                func isAdmin#(_ idToken: String) -> Bool {
                let segments = idToken.components(separatedBy: ".")
                let payload = Data(base64Encoded: segments[1]) ?? Data()
                let claims = try? JSONDecoder().decode(Claims.self, from: payload)
                if claims?.role == "admin" { return true }
                return false }
                """, footer: "", rule: "jwt-unverified-decision", expected: { $0 }),
        Family(
            name: "loops that encode the elements of one array into the Keychain",
            header:
                "import KeychainAccess\nstruct Account: Codable {\nlet refreshToken: String\n}\nlet keychain = Keychain(service: \"a\")\nvar accounts: [Account] = []\nfunc persistAll() {",
            site:
                "for account# in accounts { keychain[\"a#\"] = try? JSONEncoder().encode(account#).base64EncodedString() }",
            rule: "keychain-not-this-device-only", expected: { $0 }),
        Family(
            name: "one property mutated and logged by every method",
            header: "final class Connection {\nvar info: [String: String] = [:]",
            site: "func set#(_ token: String) { info[\"k#\"] = token }\nfunc log#() { print(info) }",
            rule: "secret-in-log", expected: { $0 }),
        Family(
            name: "pairs of properties that feed each other",
            header: "final class Cache {",
            site:
                "var a# = \"\"\nvar b# = \"\"\nfunc one#(token: String) { b# = token }\nfunc two#() { b# = a# }\nfunc three#() { a# = b# }\nfunc log#() { print(a#) }",
            rule: "secret-in-log", expected: { $0 }),
        Family(
            name: "a parameter passed on to many helpers that each write theirs (argument flow)",
            header: "final class Relay {\nfunc relay(value: String) {",
            site: " Store.write#(value: value)",
            footer: "}\n}",
            perSite:
                "enum Store# { static func write#(value: String) { UserDefaults.standard.set(value, forKey: \"k#\") } }",
            rule: "secret-in-user-defaults", expected: { $0 }),
    ]

    /// (steps, tokens, findings of the family's rule) for `count` call sites.
    static func measure(_ family: Family, _ count: Int) -> (steps: Int, tokens: Int, findings: Int) {
        let file = SourceFile(path: "Generated.swift", bytes: Array(family.source(count).utf8), language: .swift)
        let scan = FileScan(file: file)
        RuleSet.run(scan)
        // Findings another file could decide count too (here the same file raises what they wait for).
        let findings = scan.findings + scan.facts.pending.map(\.finding)
        return (scan.steps, file.tokens.count, findings.filter { $0.rule.id == family.rule }.count)
    }

    @Test(arguments: families)
    func callSitesCostAFewVisitsPerToken(_ family: Family) {
        let small = Self.measure(family, 500)
        let large = Self.measure(family, 2000)
        // Every call site was judged (the rule ran to its end, not a bail-out that would make any scan cheap).
        #expect(small.findings == family.expected(500))
        #expect(large.findings == family.expected(2000))
        #expect(small.steps > 0, "no scan was counted: the family does not reach the scans it is meant to bound")
        // At most 6 visits per token (rule scans and the dataflow together); a rescan per call site is about
        // (call sites / 2), here a thousand, visits per token.
        #expect(large.steps <= 6 * large.tokens, "\(large.steps) steps for \(large.tokens) tokens")
        // Four times the call sites: at most a little over four times the work (a rescan would be sixteen).
        #expect(Double(large.steps) <= 4.5 * Double(small.steps), "\(small.steps) → \(large.steps) steps")
    }
}
