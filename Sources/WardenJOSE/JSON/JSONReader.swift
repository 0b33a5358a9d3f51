import WardenCore

/// A strict RFC 8259 JSON reader for security-relevant documents (JOSE headers and payloads, JWKS, WebAuthn
/// client data, token responses).
///
/// Unlike Foundation's parsers it rejects duplicate member names (which would let two parsers disagree on a
/// claim), invalid UTF-8 and unpaired `\u` surrogate escapes, and it bounds work with a size cap and a depth cap.
/// It accepts exactly RFC 8259: no comments, trailing commas, `NaN`, leading zeros, or control characters in
/// strings. Whitespace around the top-level value is allowed.
///
/// ```swift
/// let header = try JSONReader().parse(Array(#"{"alg":"ES256","kid":"1"}"#.utf8))
/// header.objectValue?["alg"]?.stringValue   // "ES256"
/// ```
public struct JSONReader: Sendable {
    /// The largest document accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest nesting of arrays and objects accepted.
    public var maximumDepth: Int

    /// A reader with caps (defaults: 1 MiB, depth 32).
    public init(maximumBytes: Int = 1 << 20, maximumDepth: Int = 32) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document.
    public func parse(_ bytes: [UInt8]) throws(JOSEError) -> JSONValue {
        guard bytes.count <= maximumBytes else {
            throw JOSEError(.tooLarge, "JSON document of \(bytes.count) bytes is over the \(maximumBytes)-byte cap")
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JOSEError) -> JSONValue in
            var parser = JSONParser(input: buffer, maximumDepth: maximumDepth)
            return try parser.document()
        }
    }

    /// Parses a document that must be an object.
    public func parseObject(_ bytes: [UInt8]) throws(JOSEError) -> JSONObject {
        guard case .object(let object) = try parse(bytes) else {
            throw JOSEError(.invalidJSON, "expected a JSON object")
        }
        return object
    }
}

struct JSONParser {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var depth = 0

    init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
    }

    mutating func document() throws(JOSEError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == input.count else { throw fail("trailing characters after the JSON value") }
        return value
    }

    private func fail(_ reason: String) -> JOSEError { JOSEError(.invalidJSON, "\(reason) at byte \(index)") }

    private mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JOSEError) -> JSONValue {
        guard index < input.count else { throw fail("unexpected end of input") }
        switch input[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JOSEError) {
        let count = word.utf8CodeUnitCount
        guard input.count - index >= count else { throw fail("truncated literal") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where input[index + offset] != expected[offset] { throw fail("invalid literal") }
        index += count
    }

    private mutating func enter() throws(JOSEError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw JOSEError(.tooDeep, "JSON nesting deeper than \(maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JOSEError) -> JSONObject {
        try enter()
        index += 1
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        var seen: Set<String>?
        skipWhitespace()
        if index < input.count, input[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONObject(members: members)
        }
        while true {
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let name = try parseString()
            // Linear checks for small objects (JOSE headers), a set beyond that to stay O(n).
            if members.count < 16 {
                if members.contains(where: { $0.name == name }) { throw duplicate(name) }
            } else {
                if seen == nil { seen = Set(members.map(\.name)) }
                if !seen!.insert(name).inserted { throw duplicate(name) }
            }
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(name: name, value: try parseValue()))
            if members.count >= 16, seen != nil { seen!.insert(name) }
            skipWhitespace()
            guard index < input.count else { throw fail("unterminated object") }
            if input[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard input[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
            index += 1
            depth -= 1
            return JSONObject(members: members)
        }
    }

    private func duplicate(_ name: String) -> JOSEError {
        let shown = name.count <= 32 && name.allSatisfy { $0.isASCII && !$0.isWhitespace } ? "'\(name)'" : "a name"
        return JOSEError(.duplicateMember, "duplicate member \(shown) in a JSON object")
    }

    private mutating func parseArray() throws(JOSEError) -> [JSONValue] {
        try enter()
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if index < input.count, input[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return values
        }
        while true {
            skipWhitespace()
            values.append(try parseValue())
            skipWhitespace()
            guard index < input.count else { throw fail("unterminated array") }
            if input[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard input[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
            index += 1
            depth -= 1
            return values
        }
    }

    private mutating func parseNumber() throws(JOSEError) -> JSONNumber {
        let start = index
        if input[index] == UInt8(ascii: "-") { index += 1 }
        guard index < input.count, isDigit(input[index]) else { throw fail("invalid number") }
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < input.count, isDigit(input[index]) { throw fail("leading zeros are not allowed") }
        } else {
            while index < input.count, isDigit(input[index]) { index += 1 }
        }
        var isInteger = true
        if index < input.count, input[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < input.count, isDigit(input[index]) else { throw fail("invalid fraction") }
            while index < input.count, isDigit(input[index]) { index += 1 }
        }
        if index < input.count, input[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < input.count, isDigit(input[index]) else { throw fail("invalid exponent") }
            while index < input.count, isDigit(input[index]) { index += 1 }
        }
        guard index - start <= 64 else { throw fail("number longer than 64 characters") }
        let digits = UnsafeBufferPointer(rebasing: input[start..<index])
        let text = String(decoding: digits, as: UTF8.self)
        var value: Int64? = nil
        if isInteger && digits.count <= 18 {  // cannot overflow
            var accumulator: Int64 = 0
            let negative = digits[0] == UInt8(ascii: "-")
            for c in digits.dropFirst(negative ? 1 : 0) { accumulator = accumulator * 10 + Int64(c - 0x30) }
            value = negative ? -accumulator : accumulator
        }
        return JSONNumber(text: text, isInteger: isInteger, int64: value)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private mutating func parseString() throws(JOSEError) -> String {
        index += 1
        let start = index
        var highBits: UInt8 = 0
        // Fast path: no escapes.
        while index < input.count {
            let c = input[index]
            if c == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: input[start..<index])
                guard highBits & 0x80 == 0 || UTF8Validation.isValid(raw) else {
                    throw JOSEError(.invalidJSON, "invalid UTF-8 in a JSON string")
                }
                index += 1
                return String(decoding: raw, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 else { throw fail("control character in a JSON string") }
            highBits |= c
            index += 1
        }
        guard index < input.count else { throw fail("unterminated string") }
        // Slow path with escapes.
        var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<index]))
        while index < input.count {
            let c = input[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                guard UTF8Validation.isValid(bytes) else {
                    throw JOSEError(.invalidJSON, "invalid UTF-8 in a JSON string")
                }
                return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < input.count else { throw fail("unterminated escape") }
                let escape = input[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard input.count - index >= 6, input[index] == UInt8(ascii: "\\"),
                            input[index + 1] == UInt8(ascii: "u")
                        else { throw fail("unpaired surrogate escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("unpaired surrogate escape")
                    }
                    bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default: throw fail("invalid escape")
                }
            default:
                guard c >= 0x20 else { throw fail("control character in a JSON string") }
                bytes.append(c)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(JOSEError) -> UInt32 {
        guard input.count - index >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = input[index]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x37)
            case 0x61...0x66: digit = UInt32(c - 0x57)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
