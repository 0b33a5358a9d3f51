/// Credentials written into the app: well-known key formats in any string, secret-looking literals under secret
/// names (variables, constants, argument labels, dictionary keys, Objective-C `#define`s), and the same in
/// resources (property lists, JSON, `.xcconfig`). Enum raw values, localisation keys, event names and other
/// word-like strings are not secrets; a value must look like one (``KeyFormats/looksLikeSecretValue(_:)``).
struct HardcodedSecretRules: Rule {
    static let hardcodedSecret = RuleInfo(
        id: "hardcoded-secret", severity: .error, name: "Hard-coded secret",
        message: "A secret or API key is written into the source and ships in the app binary",
        fix: "Fetch secrets at runtime from your server after authentication; never ship them in the app.",
        masvs: ["MASVS-STORAGE-1", "MASVS-CRYPTO-2"], maswe: ["MASWE-0003"])

    var reports: [RuleInfo] { [Self.hardcodedSecret] }
    var triggers: Triggers { Triggers(identifiers: Self.cryptoTriggers, operators: ["="], strings: true) }

    /// Resource files that are public configuration by design: Firebase's GoogleService-Info.plist holds an API
    /// key that identifies the project and is not a secret (Firebase documentation); package manifests and lock
    /// files hold hashes. Apps that keep one Firebase configuration per build (`GoogleService-Info-Release.plist`,
    /// copied into place by a build phase) name them after it.
    static let publicConfiguration: Set<String> = [
        "GoogleService-Info.plist", "Package.resolved", "package-lock.json", "Podfile.lock", "Contents.json",
    ]

    func check(_ scan: FileScan, at index: Int) {
        let token = scan.tokens[index]
        if token.kind == .string {
            string(scan, index, token)
        } else if token.kind == .identifier || token.kind == .keyword {
            cryptoInput(scan, index)
        } else {
            assignment(scan, index)
        }
    }

    func string(_ scan: FileScan, _ index: Int, _ token: Token) {
        if token.text.utf8.count >= 20, let format = KeyFormats.match(token.text) {
            scan.report(Self.hardcodedSecret, at: index, "A \(format) is written into the source")
            return
        }
        guard !token.isInterpolated, scan.isSymbol(index - 1, ":") else { return }
        // Client(clientSecret: "..."), ["apiKey": "..."], @{@"password": @"..."}
        var label = index - 2
        if scan.file.language == .objectiveC, scan.text(label) == "@" { label -= 1 }
        guard scan.tokens.indices.contains(label) else { return }
        let name = scan.tokens[label]
        let named = name.kind == .identifier || (name.kind == .string && scan.isDictionaryKey(label))
        guard named, scan.isSecret(name.text), KeyFormats.looksLikeSecretValue(token.text) else { return }
        // An Objective-C message argument (`[x setObject:@"..." forKey:...]`) is not a label.
        if scan.file.language == .objectiveC, name.kind == .identifier { return }
        scan.report(Self.hardcodedSecret, at: index)
    }

    /// `let apiKey = "..."`, `static let clientSecret: String = "..."`, `NSString *password = @"..."`; not enum
    /// raw values (`case resetPassword = "auth/reset_password"`).
    func assignment(_ scan: FileScan, _ index: Int) {
        guard let nameIndex = scan.assignmentTarget(of: index), scan.tokens.indices.contains(index + 1) else { return }
        if scan.text(nameIndex - 1) == "case" || isEnumCase(scan, nameIndex) { return }
        let name = scan.tokens[nameIndex].text
        var value = index + 1
        if scan.file.language == .objectiveC, scan.text(value) == "@", scan.tokens.indices.contains(value + 1) {
            value += 1
        }
        let literal = scan.tokens[value]
        guard literal.kind == .string, !literal.isInterpolated, scan.isSecret(name),
            scan.isSymbol(value + 1, ";") || scan.tokens.indices.contains(value + 1) == false
                || scan.tokens[value + 1].line != literal.line || scan.isSymbol(value + 1, "}")
                || scan.isSymbol(value + 1, ",") || scan.isSymbol(value + 1, ")"),
            KeyFormats.looksLikeSecretValue(literal.text)
        else { return }
        scan.report(Self.hardcodedSecret, at: value)
    }

    /// `case a, resetPassword = "..."`: a later case of a list.
    private func isEnumCase(_ scan: FileScan, _ nameIndex: Int) -> Bool {
        guard scan.isSymbol(nameIndex - 1, ",") else { return false }
        var position = nameIndex - 2
        var steps = 0
        while position >= 0, steps < 64, scan.tokens[position].line == scan.tokens[nameIndex].line {
            if scan.text(position) == "case" { return true }
            position -= 1
            steps += 1
        }
        return false
    }

    func finish(_ scan: FileScan) {
        guard scan.file.language == .objectiveC else { return }
        // #define kAPISecret @"..."
        for index in scan.tokens.indices where scan.tokens[index].kind == .directive {
            let text = scan.tokens[index].text
            guard text.hasPrefix("#define") else { continue }
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count == 3, scan.isSecret(String(parts[1])) else { continue }
            var value = parts[2].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("@") { value.removeFirst() }
            // A comment after the value: `#define K @"..." // why`.
            if value.hasPrefix("\""), let close = value.dropFirst().firstIndex(of: "\"") {
                value = String(value[...close])
            }
            guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else { continue }
            let literal = String(value.dropFirst().dropLast())
            if KeyFormats.match(literal) != nil || KeyFormats.looksLikeSecretValue(literal) {
                scan.report(Self.hardcodedSecret, at: index)
            }
        }
    }

    func check(resource: ResourceFile, _ report: ResourceReport) {
        if Self.publicConfiguration.contains(resource.name)
            || (resource.name.hasPrefix("GoogleService-Info") && resource.name.hasSuffix(".plist"))
        {
            return
        }
        for entry in resource.entries {
            if entry.value.utf8.count >= 20, let format = KeyFormats.match(entry.value) {
                report.report(Self.hardcodedSecret, line: entry.line, "A \(format) is stored in \(resource.name)")
            } else if SecretNames.isSecret(entry.key), !SecretNames.namesSecrets(entry.key),
                KeyFormats.looksLikeSecretValue(entry.value)
            {
                report.report(
                    Self.hardcodedSecret, line: entry.line,
                    "'\(entry.key)' holds a hard-coded secret in \(resource.name)")
            }
        }
    }
}

extension FileScan {
    /// Whether the string at `index` is a dictionary key (`["key": value]`, `@{@"key": value}`), not a `case`
    /// label or a ternary.
    func isDictionaryKey(_ index: Int) -> Bool {
        var before = index - 1
        if file.language == .objectiveC, text(before) == "@" { before -= 1 }
        return isSymbol(before, "[") || isSymbol(before, ",") || isSymbol(before, "{") && text(before - 1) == "@"
    }
}
