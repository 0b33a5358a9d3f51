/// Codable records that hold a secret: a Swift `struct` or `class` declared `Codable` or `Encodable` with a
/// secret-named stored property (`struct Account: Codable { let accessToken: String }`). Its encoding holds the
/// secret, so `JSONEncoder().encode(account)` written to a store is a secret written there, even where the sink's
/// file never names one. A file raises ``flag(_:)`` for each such type it declares; the keyed-write rules report a
/// write of an encoded value of that type pending the flag (the type usually lives in another file).
struct CodableSecrets: Rule {
    var reports: [RuleInfo] { [] }

    var triggers: Triggers { Triggers(identifiers: ["Codable", "Encodable"]) }

    /// The flag a file raises for each Codable type it declares with a secret-named stored property.
    static func flag(_ type: String) -> String { "codableSecret:" + type }

    func check(_ scan: FileScan, at index: Int) {
        guard scan.file.language == .swift, let (name, open) = Self.declaration(scan, conformingAt: index),
            Self.storesSecret(scan, body: open)
        else { return }
        scan.facts.flags.insert(Self.flag(name))
    }

    /// The type whose declaration head names the conformance at `index` (`struct Account: Codable, Hashable {`):
    /// its name and the `{` of its body.
    static func declaration(_ scan: FileScan, conformingAt index: Int) -> (name: String, open: Int)? {
        let tokens = scan.tokens
        var position = index - 1
        while position >= 0, index - position < 64 {
            if tokens[position].kind == .keyword, ["struct", "class", "actor"].contains(tokens[position].text) {
                guard position + 1 < tokens.count, tokens[position + 1].kind == .identifier else { return nil }
                break
            }
            // A generic constraint is no conformance: `struct Box<T: Codable>`, `where T: Codable`.
            let text = tokens[position].text
            if tokens[position].kind == .punctuation && ["{", "}", ";", "(", ")"].contains(text)
                || text == "<" || text == "where"
            {
                return nil
            }
            position -= 1
        }
        guard position >= 0, index - position < 64 else { return nil }
        var open = index + 1
        while open < tokens.count, open - index < 64, !scan.isSymbol(open, "{") {
            if scan.isSymbol(open, "}") || scan.isSymbol(open, ";") { return nil }
            open += 1
        }
        guard scan.isSymbol(open, "{") else { return nil }
        return (tokens[position + 1].text, open)
    }

    /// Whether the type body at `open` declares a stored property with a secret name: `let`/`var NAME` directly in
    /// the body, with no accessor block (`var token: String { get }` is computed and not encoded by synthesis).
    static func storesSecret(_ scan: FileScan, body open: Int) -> Bool {
        let tokens = scan.tokens
        let scopes = scan.scopes
        let close = Int(scan.file.partner[open])
        guard close > open else { return false }
        for position in (open + 1)..<close
        where tokens[position].kind == .keyword && scopes[position] == Int32(open)
            && (tokens[position].text == "let" || tokens[position].text == "var")
        {
            guard position + 1 < close, tokens[position + 1].kind == .identifier,
                scan.isSecret(tokens[position + 1].text), !isStatic(scan, position)
            else { continue }
            if tokens[position].text == "let" || !isComputed(scan, name: position + 1, end: close) { return true }
        }
        return false
    }

    private static func isStatic(_ scan: FileScan, _ position: Int) -> Bool {
        var back = position - 1
        while back >= 0, position - back < 6, scan.tokens[back].line == scan.tokens[position].line {
            // Not past the body's brace: `class S: Codable { let token: String }` on one line.
            if scan.isSymbol(back, "{") || scan.isSymbol(back, ";") || scan.isSymbol(back, "}") { return false }
            if ["static", "class"].contains(scan.text(back)) { return true }
            back -= 1
        }
        return false
    }

    /// Whether the `var` named at `name` has an accessor block: a `{` on its line before any `=`.
    private static func isComputed(_ scan: FileScan, name: Int, end: Int) -> Bool {
        var position = name + 1
        let line = scan.tokens[name].line
        while position < end, scan.tokens[position].line == line {
            if scan.isSymbol(position, "=") || scan.isSymbol(position, ";") { return false }
            if scan.isSymbol(position, "{") {
                // Observers keep the property stored: `var token: String { didSet { ... } }`.
                return !["didSet", "willSet"].contains(scan.text(position + 1))
            }
            if scan.isSymbol(position, "(") || scan.isSymbol(position, "[") || scan.isSymbol(position, "<") {
                let partner = Int(scan.file.partner[position])
                if partner > position { position = partner }
            }
            position += 1
        }
        return false
    }
}

extension FileScan {
    /// A variable encoded in `range` (`JSONEncoder().encode(account)`, `encoder.encode(account)`) whose declared
    /// type this file shows: a parameter or a typed declaration (`account: Account`), a `let x = Account(...)`, or a
    /// `for x in xs` over a property declared `xs: [Account]`. The type is a candidate for
    /// ``CodableSecrets/flag(_:)``.
    func encodedRecord(in range: Range<Int>) -> (variable: String, type: String)? {
        guard file.language == .swift else { return nil }
        for position in range
        where tokens[position].kind == .identifier && tokens[position].text == "encode" && isSymbol(position + 1, "(")
            && position + 3 < tokens.count && tokens[position + 2].kind == .identifier && isSymbol(position + 3, ")")
        {
            let variable = tokens[position + 2].text
            if let type = declaredType(of: variable, before: position) { return (variable, type) }
        }
        return nil
    }

    /// The type the nearest declaration of `name` before `index` gives it (see ``encodedRecord(in:)``).
    func declaredType(of name: String, before index: Int) -> String? {
        guard let spelling = file.names.name(of: name) else { return nil }
        var position = index - 1
        defer { spend(index - 1 - position) }
        while position >= 0, index - position < 4096 {
            defer { position -= 1 }
            guard tokens[position].name == spelling, tokens[position].kind == .identifier else { continue }
            if isSymbol(position + 1, ":"), let type = typeName(at: position + 2) { return type }
            if ["let", "var"].contains(text(position - 1)), isSymbol(position + 1, "="),
                let type = typeName(at: position + 2), isSymbol(position + 3, "(")
            {
                return type
            }
            if text(position - 1) == "for", text(position + 1) == "in", position + 2 < tokens.count {
                var sequence = position + 2
                if ["self", "Self"].contains(text(sequence)), isSymbol(sequence + 1, ".") { sequence += 2 }
                guard sequence < tokens.count, tokens[sequence].kind == .identifier else { return nil }
                return elementType(of: tokens[sequence].text)
            }
        }
        return nil
    }

    /// `T` of a declaration `name: [T]` anywhere in the file.
    private func elementType(of name: String) -> String? {
        if let known = elementTypes[name] { return known }
        let type = findElementType(of: name)
        elementTypes[name] = .some(type)
        return type
    }

    private func findElementType(of name: String) -> String? {
        guard let spelling = file.names.name(of: name) else { return nil }
        spend(tokens.count)
        for position in tokens.indices
        where tokens[position].name == spelling && tokens[position].kind == .identifier && isSymbol(position + 1, ":")
            && isSymbol(position + 2, "[") && isSymbol(position + 4, "]")
        {
            if let type = typeName(at: position + 3) { return type }
        }
        return nil
    }

    /// A capitalised type name at `index` (`Account`), not a framework's value type that holds anything.
    private func typeName(at index: Int) -> String? {
        guard index < tokens.count, tokens[index].kind == .identifier,
            let first = tokens[index].text.utf8.first, first >= 0x41 && first <= 0x5A,
            !["String", "Data", "Any", "AnyObject", "Self"].contains(tokens[index].text),
            // `Account.ID`, `Account.Kind`: a member type, not the record.
            !isSymbol(index + 1, ".")
        else { return nil }
        return tokens[index].text
    }
}
