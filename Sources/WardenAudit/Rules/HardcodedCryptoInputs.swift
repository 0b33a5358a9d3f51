/// Hard-coded keys, IVs, nonces and salts fed to crypto calls: a string or byte-array literal (inline, or bound to a
/// constant the call names) passed as `iv:`, `salt:` or `initializationVector:`, as `key:` or `nonce:` of a cipher,
/// MAC or key-derivation call (`Salsa20(key:iv:)`, `AES.GCM.seal(_:using:)`, `SymmetricKey(data:)`), or in
/// CommonCrypto's key, IV and salt positions (`CCCrypt`, `CCKeyDerivationPBKDF`, `CCHmac`). The value ships in the
/// binary: every install shares it, and a fixed IV or nonce repeats under one key.
extension HardcodedSecretRules {
    /// Labels that take crypto input whatever the call.
    static let cryptoInputLabels: Set<String> = ["iv", "salt", "initializationVector", "IV", "initVector"]
    /// Labels that take a key or a nonce when the call is a cipher, a MAC or a key derivation (an OAuth 1.0a
    /// signer's `nonce:` is a protocol value).
    static let keyLabels: Set<String> = ["key", "using", "withKey", "keyData", "data", "nonce"]
    /// Words of calls and receivers that are crypto.
    static let cryptoWords: Set<String> = [
        "aes", "gcm", "chacha", "chachapoly", "salsa20", "salsa", "cipher", "crypt", "crypto", "encrypt", "decrypt",
        "seal", "hmac", "pbkdf", "pbkdf2", "symmetric", "twofish", "blowfish", "hkdf", "kdf", "derive", "cryptor",
    ]
    /// CommonCrypto calls and the 0-based positions of their key, IV and salt arguments.
    static let commonCrypto: [String: [Int: String]] = [
        "CCCrypt": [3: "key", 5: "IV"], "CCCryptorCreate": [3: "key", 5: "IV"],
        "CCKeyDerivationPBKDF": [3: "salt"], "CCHmac": [1: "key"],
    ]

    static let cryptoTriggers: Set<String> = cryptoInputLabels.union(keyLabels).union(commonCrypto.keys)

    func cryptoInput(_ scan: FileScan, _ index: Int) {
        let name = scan.tokens[index].text
        if let positions = Self.commonCrypto[name] {
            guard let call = scan.file.call(at: index) else { return }
            for (position, role) in positions where position < call.arguments.count {
                reportLiteral(scan, call.arguments[position].range, role: role, call: name)
            }
            return
        }
        guard scan.isSymbol(index + 1, ":") else { return }
        // `key:`, `data:` and `using:` label countless calls: only a literal (or a name) there is worth a look.
        if !Self.cryptoInputLabels.contains(name) {
            let next = index + 2 < scan.tokens.count ? scan.tokens[index + 2] : nil
            guard let next,
                next.kind == .identifier || next.kind == .string || next.isSymbol("[")
                    || next.isSymbol("@") || next.isSymbol("(")
            else { return }
        }
        // Swift: a labelled argument of the call around it; Objective-C: a part of the message.
        let callee: [String]
        let value: Range<Int>
        if let message = scan.message(at: index), let argument = message.argument(name) {
            callee = message.parts.map(\.label) + message.receiver.map { scan.text($0) }
            value = argument
        } else if let open = scan.enclosingOpener(of: index, "(", limit: 64), open > 0,
            scan.tokens[open - 1].kind == .identifier || scan.tokens[open - 1].kind == .keyword
        {
            callee = [scan.text(open - 1)] + scan.file.receiver(of: open - 1)
            value = scan.flow.valueRange(from: index + 2, stopAtBrace: false).clamped(
                to: (index + 2)..<Int(scan.file.partner[open]))
            guard !value.isEmpty else { return }
        } else {
            return
        }
        let crypto =
            !Self.cryptoInputLabels.contains(name)
            && callee.contains { callee in
                scan.memo("crypto-name " + callee) {
                    SecretNames.words(callee).contains(where: Self.cryptoWords.contains)
                }
            }
        // `data:` is a key only for SymmetricKey(data:); elsewhere it is the plaintext.
        let keyLabel = name == "data" ? callee.first == "SymmetricKey" : Self.keyLabels.contains(name)
        guard Self.cryptoInputLabels.contains(name) || crypto && keyLabel else { return }
        let role = Self.cryptoInputLabels.contains(name) || name == "nonce" ? name : "key"
        reportLiteral(scan, value, role: role, call: callee.first ?? "")
    }

    /// Reports a hard-coded value at `range`: a literal there, or in the constant it names.
    private func reportLiteral(_ scan: FileScan, _ range: Range<Int>, role: String, call: String) {
        var range = Self.trimmedArgument(scan, range)
        var via = ""
        if range.count == 1 || range.count == 3 && scan.text(range.lowerBound) == "self",
            scan.tokens[range.upperBound - 1].kind == .identifier,
            let bound = Self.constant(scan, scan.text(range.upperBound - 1), usedAt: range.upperBound - 1)
        {
            via = " through '\(scan.text(range.upperBound - 1))'"
            range = bound
        }
        guard let literal = Self.literal(scan, range), scan.once("crypto-literal \(literal)") else { return }
        scan.report(
            Self.hardcodedSecret, at: literal,
            "A hard-coded \(role) is fed to \(call)\(via): it ships in the binary, the same for every install")
    }

    /// `(uint8_t *)iv`, `&salt`, `iv.bytes`: the value without casts and address-of.
    static func trimmedArgument(_ scan: FileScan, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        if scan.isSymbol(lower, "("), scan.file.partner[lower] > lower,
            Int(scan.file.partner[lower]) + 1 < range.upperBound
        {
            lower = Int(scan.file.partner[lower]) + 1
        }
        if scan.text(lower) == "&" { lower += 1 }
        var upper = range.upperBound
        if upper - lower == 3, scan.isSymbol(upper - 2, "."), ["bytes", "utf8"].contains(scan.text(upper - 1)) {
            upper -= 2
        }
        return lower..<max(lower, upper)
    }

    /// The value a constant of the file is bound to: `let iv = ...`, `static let salt: [UInt8] = ...`,
    /// `static const uint8_t salt[] = {...}`, `NSString *const kKey = @"..."`.
    /// The declaration is the last one before the use in the use's function, or else one at the top level or in a
    /// type body (a constant); a name the function declares otherwise (`uint8_t iv[16];` filled at run time) is not one.
    static func constant(_ scan: FileScan, _ name: String, usedAt use: Int) -> Range<Int>? {
        let tokens = scan.tokens
        let scopes = scan.scopes
        let scope = scopes[use]
        let spelling = tokens[use].name
        let candidates = tokens.indices.dropLast(2).filter { index in
            guard tokens[index].name == spelling, tokens[index].kind == .identifier, index != use else { return false }
            return scopes[index] == scope && index < use || scopes[index] < 0 || scan.isTypeBody(Int(scopes[index]))
        }
        // The function's own declarations first, the nearest before the use.
        let local = candidates.filter { scopes[$0] == scope && $0 < use && scope >= 0 }
        let ordered = local.isEmpty ? candidates : [local.last!]
        for index in ordered {
            var position = index + 1
            if scan.isSymbol(position, "["), scan.file.partner[position] > position {
                position = Int(scan.file.partner[position]) + 1  // salt[] / iv[16]
            } else if scan.isSymbol(position, ":") {
                while position < tokens.count, position < index + 12, !scan.isSymbol(position, "=") { position += 1 }
            }
            guard scan.isSymbol(position, "="), position + 1 < tokens.count else { continue }
            let declared =
                index > 0
                && (["let", "var", "const"].contains(scan.text(index - 1)) || scan.isSymbol(index - 1, "*")
                    || scan.tokens[index - 1].kind == .identifier)
            guard declared else { continue }
            if scan.isSymbol(position + 1, "{"), scan.file.partner[position + 1] > position + 1 {
                return (position + 1)..<(Int(scan.file.partner[position + 1]) + 1)
            }
            return scan.flow.valueRange(from: position + 1, stopAtBrace: false)
        }
        return nil
    }

    /// The token a hard-coded value in `range` is reported at: a non-empty string literal (`"..."`, `@"..."`, with
    /// `.data(using:)`, `Data(...utf8)`) or a list of at least four numbers (`[0xE8, 0x30, ...]`, `{0x00, ...}`, in
    /// `Data(...)`, `SecureBytes.from(...)`), with nothing computed in it.
    static func literal(_ scan: FileScan, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count < 4096 else { return nil }
        let wrappers: Set<String> = [
            "Data", "Array", "UInt8", "SecureBytes", "ByteArray", "from", "data", "using", "utf8", "encrypt",
            "SymmetricKey", "bytes", "false", "true", "NSData", "dataWithBytes", "length", "sizeof", "count",
        ]
        var strings: [Int] = []
        var numbers = 0
        var firstNumber: Int?
        for position in range {
            let token = scan.tokens[position]
            switch token.kind {
            case .string:
                guard !token.isInterpolated, !token.text.isEmpty else { return nil }
                strings.append(position)
            case .number:
                numbers += 1
                if firstNumber == nil { firstNumber = position }
            case .identifier, .keyword:
                guard wrappers.contains(token.text) || token.text.hasPrefix("NSUTF8") || token.text == "utf8" else {
                    return nil
                }
            case .interpolationStart, .interpolationEnd:
                return nil
            default:
                continue
            }
        }
        if strings.count == 1, numbers == 0 { return strings[0] }
        if strings.isEmpty, numbers >= 4 { return firstNumber }
        return nil
    }
}
