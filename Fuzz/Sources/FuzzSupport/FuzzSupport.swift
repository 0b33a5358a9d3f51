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
