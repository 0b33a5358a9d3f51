import Foundation

/// libFuzzer's driver entry point (from `-sanitize=fuzzer`).
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Hands control to libFuzzer. SwiftPM links executables with `main` aliased to `<Target>_main`, so each target
/// exports that symbol and calls this with its `LLVMFuzzerTestOneInput` body.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, body)
}

/// Traps (libFuzzer saves the input as a crash) when an invariant of the code under test does not hold.
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant violated: \(message())", file: file, line: line) }
}

/// Whether `needle` occurs in `haystack` (byte-wise, so no Unicode equivalence hides a match).
public func occurs(_ needle: some Collection<UInt8>, in haystack: some Collection<UInt8>) -> Bool {
    let needle = Array(needle)
    let haystack = Array(haystack)
    guard !needle.isEmpty else { return true }
    guard haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start..<(start + needle.count)].elementsEqual(needle)
    }
}

/// Takes a fuzz input apart into a few structured pieces (like LLVM's FuzzedDataProvider, front to back).
public struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    public init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    public var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, 0 once the input is used up.
    public mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// Up to `count` next bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(max(0, count))
        bytes = bytes.dropFirst(taken.count)
        return Array(taken)
    }

    /// The bytes up to the next `separator` (consumed, not returned), or all that is left.
    public mutating func field(separator: UInt8 = 0x0A) -> [UInt8] {
        guard let end = bytes.firstIndex(of: separator) else { return rest() }
        let field = Array(bytes[..<end])
        bytes = bytes[(end + 1)...]
        return field
    }

    /// Everything that is left.
    public mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}

/// Runs `body` to its end from the fuzzer's (synchronous, non-async) callback thread.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// The value a ``blocking(_:)`` task hands back: written once by the task, read after the semaphore.
final class BlockingResult<T: Sendable>: @unchecked Sendable {
    var value: T?
}

/// The fuzz oracles' own `application/x-www-form-urlencoded` reader (WHATWG URL §5.1), written apart from Warden's:
/// the pairs of `text` in order, `+` as a space, or nil when a `%` escape is malformed or a name or value is not
/// UTF-8. An oracle that used the decoder under test would agree with its bugs.
public func formPairs(_ text: String) -> [(String, String)]? {
    if text.isEmpty { return [] }
    func unescape(_ part: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = part.utf8.startIndex
        while index < part.utf8.endIndex {
            let byte = part.utf8[index]
            if byte == UInt8(ascii: "%") {
                let digits = part.utf8[index...].dropFirst().prefix(2)
                // UInt8(_:radix:) alone would take a sign ("%+1").
                guard digits.count == 2, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                    let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = part.utf8.index(index, offsetBy: 3)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index = part.utf8.index(after: index)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }
    var pairs: [(String, String)] = []
    for part in text.split(separator: "&", omittingEmptySubsequences: false) {
        let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = unescape(pieces[0]), let value = pieces.count > 1 ? unescape(pieces[1]) : "" else {
            return nil
        }
        pairs.append((name, value))
    }
    return pairs
}
