/// The single-pass byte scanner behind ``Redactor``. Copies untouched spans in bulk and replaces secrets.
struct RedactionScanner {
    private let input: UnsafeBufferPointer<UInt8>
    /// The same text as `input`; untouched spans are appended as substrings of it, so the output never needs
    /// UTF-8 validation (every cut is at an ASCII delimiter and every placeholder is ASCII).
    private let original: String
    private let redactor: Redactor
    private var output = ""
    private var copyStart = 0

    init(input: UnsafeBufferPointer<UInt8>, original: String, redactor: Redactor) {
        self.input = input
        self.original = original
        self.redactor = redactor
    }

    private func slice(_ start: Int, _ end: Int) -> Substring {
        let utf8 = original.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        return original[from..<utf8.index(from, offsetBy: end - start)]
    }

    // Character classes: bit 0 = name ([A-Za-z0-9_-]), bit 1 = token (name + [+.~]).
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(c)] = 3 }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(c)] = 3 }
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(c)] = 3 }
        table[Int(UInt8(ascii: "_"))] = 3
        table[Int(UInt8(ascii: "-"))] = 3
        for c in "+.~".utf8 { table[Int(c)] = 2 }
        return table
    }()

    private static let schemes = NameTable(["bearer", "basic", "dpop", "digest", "oauth", "mac", "negotiate", "token"])

    static func isScheme(_ word: [UInt8]) -> Bool { schemes.contains(word) }

    mutating func run() -> String {
        let count = input.count
        Self.classes.withUnsafeBufferPointer { classes in
            var i = 0
            while i < count {
                let c = input[i]
                // Every handler returns at a non-token byte, so a token byte here always starts a run.
                if classes[Int(c)] != 0 {
                    i = runStarting(at: i, classes: classes)
                } else if c == UInt8(ascii: ":") && i + 2 < count && input[i + 1] == 0x2F && input[i + 2] == 0x2F {
                    i = authority(after: i + 3)
                } else {
                    i += 1
                }
            }
        }
        if copyStart == 0 { return original }
        output.append(contentsOf: slice(copyStart, input.count))
        return output
    }

    /// Replaces `input[start..<end]` with `replacement`.
    private mutating func replace(_ start: Int, _ end: Int, with replacement: String) {
        if copyStart == 0 && output.isEmpty { output.reserveCapacity(input.count + 64) }
        output.append(contentsOf: slice(copyStart, start))
        output.append(replacement)
        copyStart = end
    }

    private func placeholder(_ start: Int, _ end: Int) -> String {
        redactor.placeholder(for: UnsafeBufferPointer(rebasing: input[start..<end]))
    }

    /// Handles a run of name/token characters starting at `start`; returns where scanning resumes.
    private mutating func runStarting(at start: Int, classes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = input.count
        var nameEnd = start
        while nameEnd < count && classes[Int(input[nameEnd])] & 1 != 0 { nameEnd += 1 }
        let name = UnsafeBufferPointer(rebasing: input[start..<nameEnd])
        if nameEnd < count {
            let next = input[nameEnd]
            if next == UInt8(ascii: "="), redactor.names.contains(name) {
                return parameterValue(from: nameEnd + 1)
            }
            if next == UInt8(ascii: "\""), start > 0, input[start - 1] == UInt8(ascii: "\""),
                redactor.names.contains(name), let resume = jsonValue(after: nameEnd + 1)
            {
                return resume
            }
            if next == UInt8(ascii: ":"), redactor.headers.contains(name) {
                return headerValue(from: nameEnd + 1)
            }
        }
        var end = start
        while end < count && classes[Int(input[end])] & 2 != 0 { end += 1 }
        // Base64 padding belongs to the run only when the run ends there.
        var padded = end
        while padded < count && padded - end < 2 && input[padded] == UInt8(ascii: "=") { padded += 1 }
        if padded > end && (padded == count || classes[Int(input[padded])] == 0) { end = padded }
        let run = UnsafeBufferPointer(rebasing: input[start..<end])
        if Self.isJWT(run) || isHighEntropy(run) {
            replace(start, end, with: Self.isJWT(run) ? jwtPlaceholder(start, end) : placeholder(start, end))
        }
        return end
    }

    private func jwtPlaceholder(_ start: Int, _ end: Int) -> String {
        let inner = placeholder(start, end)
        return inner == "<redacted>" ? "<redacted jwt>" : "<redacted jwt " + inner.dropFirst(10)
    }

    /// `name=value`: the value runs to the next delimiter.
    private mutating func parameterValue(from valueStart: Int) -> Int {
        var end = valueStart
        while end < input.count && !Self.isValueDelimiter(input[end]) { end += 1 }
        if end > valueStart { replace(valueStart, end, with: placeholder(valueStart, end)) }
        return end
    }

    private static func isValueDelimiter(_ c: UInt8) -> Bool {
        switch c {
        case 0x26, 0x23, 0x20, 0x09, 0x0D, 0x0A, 0x22, 0x27, 0x3C, 0x3E, 0x2C, 0x3B, 0x29, 0x5D, 0x7D, 0x5C: true
        default: false
        }
    }

    /// `"name": value` — a string (escapes honoured) or a bare literal.
    private mutating func jsonValue(after quote: Int) -> Int? {
        var i = quote
        while i < input.count && (input[i] == 0x20 || input[i] == 0x09) { i += 1 }
        guard i < input.count, input[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        var crossedLine = false
        while i < input.count && (input[i] == 0x20 || input[i] == 0x09 || input[i] == 0x0A || input[i] == 0x0D) {
            if input[i] == 0x0A || input[i] == 0x0D { crossedLine = true }
            i += 1
        }
        guard i < input.count else { return nil }
        // A member whose value is not on its line: only a string or a JSON number/literal continues it there. A bare
        // word on the next line (`Authorization: Bearer ...`) is the next line's own text and is scanned as such.
        if crossedLine, input[i] != UInt8(ascii: "\""), !Self.startsJSONScalar(input[i]) { return i }
        if input[i] == UInt8(ascii: "\"") {
            let valueStart = i + 1
            var end = valueStart
            while end < input.count && input[end] != UInt8(ascii: "\"") {
                end += input[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            end = min(end, input.count)
            if end > valueStart { replace(valueStart, end, with: placeholder(valueStart, end)) }
            return end
        }
        var end = i
        while end < input.count && !Self.isValueDelimiter(input[end]) { end += 1 }
        if end > i, !(input[i] == UInt8(ascii: "n") && end - i == 4) {  // keep `null`
            replace(i, end, with: placeholder(i, end))
        }
        return end
    }

    /// A byte that can begin a JSON number or `true`/`false`/`null`.
    private static func startsJSONScalar(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "t")
            || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
    }

    /// `Authorization: Bearer xyz` — keeps the scheme, redacts to the end of the line.
    private mutating func headerValue(from colon: Int) -> Int {
        var i = colon
        while i < input.count && (input[i] == 0x20 || input[i] == 0x09) { i += 1 }
        var wordEnd = i
        while wordEnd < input.count && input[wordEnd] != 0x20 && input[wordEnd] != 0x0A && input[wordEnd] != 0x0D {
            wordEnd += 1
        }
        if wordEnd < input.count, input[wordEnd] == 0x20, Self.isScheme(Array(input[i..<wordEnd])) {
            i = wordEnd + 1
        }
        var end = i
        while end < input.count && input[end] != 0x0A && input[end] != 0x0D && input[end] != 0x22 { end += 1 }
        if end > i { replace(i, end, with: placeholder(i, end)) }
        return end
    }

    /// After `://`: redacts userinfo (`user:pass@`) when present.
    private mutating func authority(after start: Int) -> Int {
        var i = start
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: "@"):
                if i > start { replace(start, i, with: "<redacted>") }
                return i + 1
            case 0x2F, 0x3F, 0x23, 0x20, 0x0A, 0x0D, 0x22, 0x27, 0x3C, 0x3E, 0x5C: return start
            default: i += 1
            }
        }
        return start
    }

    static func isJWT(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        guard run.count >= 20, run[0] == UInt8(ascii: "e"), run[1] == UInt8(ascii: "y"), run[2] == UInt8(ascii: "J")
        else { return false }
        var dots = 0
        for c in run where c == UInt8(ascii: ".") { dots += 1 }
        return dots == 2 || dots == 4
    }

    private func isHighEntropy(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        guard run.count >= redactor.options.highEntropyMinimumLength else { return false }
        var digits = 0
        var letters = 0
        var seenLow: UInt64 = 0
        var seenHigh: UInt64 = 0
        for c in run {
            if c >= 0x30 && c <= 0x39 {
                digits += 1
            } else if (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A {
                letters += 1
            }
            if c < 64 { seenLow |= 1 << UInt64(c) } else if c < 128 { seenHigh |= 1 << UInt64(c - 64) }
        }
        let distinct = seenLow.nonzeroBitCount + seenHigh.nonzeroBitCount
        return digits >= 2 && letters >= 2 && distinct >= 10
    }
}
