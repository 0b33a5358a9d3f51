/// Every rule family, and the dispatch tables that hand each token only to the families it wakes up.
enum RuleSet {
    /// The families, in catalogue order.
    static let all: [any Rule] = [
        KeychainRules(), PreferencesRules(), FileStorageRules(), DatabaseStorageRules(), FileProtectionRule(),
        HardcodedSecretRules(), WebViewRules(), AuthorizationRequestRules(), TokenInURLRule(), JWTRules(),
        TransportSecurityRules(), ServerTrustRule(), CleartextRule(), BiometricRules(), AppleSignInRules(),
        PasswordFieldRule(), ComparisonRule(), RandomnessRule(), LoggingRule(), CodableSecrets(), ArgumentFlow(),
    ]

    private static let identifiers: [String: [Int]] = table(\.identifiers)
    private static let identifierShapes: [UInt64] = Lexer.shapes(of: identifiers.keys)
    private static let attributes: [String: [Int]] = table(\.attributes)
    private static let operators: [String: [Int]] = table(\.operators)
    private static let strings: [Int] = all.indices.filter { all[$0].triggers.strings }
    private static let identifierTests: [(Int, @Sendable (String) -> Bool)] = all.indices.compactMap { index in
        all[index].triggers.identifierTest.map { (index, $0) }
    }

    private static func table(_ field: KeyPath<Triggers, Set<String>>) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for (index, rule) in all.enumerated() {
            for name in rule.triggers[keyPath: field] { result[name, default: []].append(index) }
        }
        return result
    }

    /// Runs every family over one source file.
    static func run(_ scan: FileScan) {
        let rules = all
        let identifiers = Self.identifiers
        let shapes = Self.identifierShapes
        let identifierTests = Self.identifierTests
        // The families each spelling wakes, decided the first time the file uses it (by spelling number: a name
        // used a thousand times is looked up once).
        var woken = [[Int]?](repeating: nil, count: scan.file.names.count)
        for (index, token) in scan.tokens.enumerated() {
            switch token.kind {
            case .identifier:
                let spelling = Int(token.name)
                if let known = woken[spelling] {
                    for rule in known { rules[rule].check(scan, at: index) }
                    continue
                }
                var wanted: [Int] = []
                let utf8 = token.text.utf8
                if let first = utf8.first, Lexer.mayBe(shapes, first, utf8.count), let table = identifiers[token.text] {
                    wanted = table
                }
                for (rule, test) in identifierTests where test(token.text) { wanted.append(rule) }
                woken[spelling] = wanted
                for rule in wanted { rules[rule].check(scan, at: index) }
            case .attribute:
                if let wanted = attributes[token.text] {
                    for rule in wanted { rules[rule].check(scan, at: index) }
                }
            case .string:
                for rule in strings { rules[rule].check(scan, at: index) }
            case .operator:
                if let wanted = operators[token.text] {
                    for rule in wanted { rules[rule].check(scan, at: index) }
                }
            default:
                break
            }
        }
        for rule in rules { rule.finish(scan) }
    }

    /// Runs every family over one resource file.
    static func run(_ resource: ResourceFile, _ report: ResourceReport) {
        for rule in all { rule.check(resource: resource, report) }
    }

    /// Runs the project-wide checks.
    static func finish(_ project: ProjectFacts) -> ProjectReport {
        let report = ProjectReport()
        for rule in all { rule.finish(project: project, report) }
        for (file, finding) in project.confirmedPending() { report.report(finding, file: file) }
        return report
    }
}
