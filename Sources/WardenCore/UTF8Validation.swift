/// RFC 3629 UTF-8 validation shared by every Warden parser: no overlong forms, no surrogates, nothing above
/// U+10FFFF. (`String(decoding:as:)` repairs instead of refusing, which a parser of attacker input must not do.)
package enum UTF8Validation {
    /// Whether `bytes` are valid UTF-8.
    @inlinable package static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            if first < 0x80 { continue }
            let count: Int
            var minimum: UInt32
            var scalar: UInt32
            switch first {
            case 0xC2...0xDF:
                count = 1
                minimum = 0x80
                scalar = UInt32(first & 0x1F)
            case 0xE0...0xEF:
                count = 2
                minimum = 0x800
                scalar = UInt32(first & 0x0F)
            case 0xF0...0xF4:
                count = 3
                minimum = 0x10000
                scalar = UInt32(first & 0x07)
            default: return false
            }
            for _ in 0..<count {
                guard let next = iterator.next(), next & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
        }
        return true
    }

    /// Whether `bytes` are valid UTF-8: the same check over contiguous memory, with an ASCII fast path (eight
    /// bytes at a time). The generic form is not specialised across modules and walks an iterator per byte, which
    /// was a sixth of `warden audit`'s time.
    package static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid(buffer: $0) }
    }

    /// Whether the bytes of `buffer` are valid UTF-8.
    package static func isValid(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = buffer.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at once.
            if index + 8 <= count,
                UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let first = buffer[index]
            index += 1
            if first < 0x80 { continue }
            let continuation: Int
            var minimum: UInt32
            var scalar: UInt32
            switch first {
            case 0xC2...0xDF: (continuation, minimum, scalar) = (1, 0x80, UInt32(first & 0x1F))
            case 0xE0...0xEF: (continuation, minimum, scalar) = (2, 0x800, UInt32(first & 0x0F))
            case 0xF0...0xF4: (continuation, minimum, scalar) = (3, 0x10000, UInt32(first & 0x07))
            default: return false
            }
            guard index + continuation <= count else { return false }
            for offset in 0..<continuation {
                let next = buffer[index + offset]
                guard next & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            index += continuation
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
        }
        return true
    }

    /// The string for valid UTF-8 bytes, nil otherwise (never repaired).
    package static func string(_ bytes: some Collection<UInt8>) -> String? {
        guard isValid(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
