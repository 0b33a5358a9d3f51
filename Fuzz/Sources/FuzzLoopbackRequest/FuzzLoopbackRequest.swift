import Foundation
import FuzzSupport
@_spi(Fuzzing) import WardenOAuth

/// The loopback server's HTTP/1.1 request parser fed the way a socket would: the first byte gives how many chunk
/// sizes follow (0–15), each size byte a chunk of 1–256 bytes (cycling; without sizes, the parser's own `wanted`),
/// and the rest is what the peer sends, then closes. The parser never crashes; a completed request respects every
/// cap and rule it promises; the answer does not depend on how the bytes were split.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let sizes = input.take(Int(input.byte() & 0x0F)).map { Int($0) + 1 }
    let payload = input.rest()

    var parser = LoopbackRequestParser()
    var state = LoopbackRequestParser.State.needMore
    var offset = 0
    var chunk = 0
    while offset < payload.count {
        let wanted = parser.wanted
        require((1...65536).contains(wanted), "wanted \(wanted) bytes")
        let end = min(payload.count, offset + (sizes.isEmpty ? wanted : sizes[chunk % sizes.count]))
        state = parser.feed(Array(payload[offset..<end]))
        offset = end
        chunk += 1
        guard case .needMore = state else { break }
    }
    if case .needMore = state {
        state = parser.feed([])  // the peer closed the connection
        guard case .failed(let failure) = state, failure.status == 400 else {
            fatalError("a connection that ends early must be a 400, not \(describe(state))")
        }
    }
    check(state, payload: payload)

    // The same bytes in one piece.
    var whole = LoopbackRequestParser()
    var once = whole.feed(payload)
    if case .needMore = once { once = whole.feed([]) }
    // Fuzz/Crashes/FuzzLoopbackRequest/head-16383-bytes-bytewise: the 16 KiB head cap once counted a partial
    // blank line, so a read ending inside it turned an accepted head into a 431.
    require(same(once, state), "chunked: \(describe(state)), in one piece: \(describe(once))")
    return 0
}

/// The invariants of a final state.
func check(_ state: LoopbackRequestParser.State, payload: [UInt8]) {
    switch state {
    case .needMore:
        fatalError("needMore after the connection closed")
    case .failed(let failure):
        require([400, 413, 431].contains(failure.status), "status \(failure.status)")
    case .complete(let request):
        guard let end = headEnd(payload) else { fatalError("a request completed without a blank line") }
        require(end <= LoopbackRequestParser.maximumHeaderBytes, "a head of \(end) bytes was accepted")
        require(!request.method.isEmpty, "empty method")
        require(request.method.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }, "method \(request.method)")
        require(request.target.hasPrefix("/"), "target is not origin-form")
        require(request.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target with invisible bytes")
        require(
            request.target.utf8.count <= LoopbackRequestParser.maximumRequestLineBytes, "request line over the cap")
        require(request.path + (request.query.map { "?" + $0 } ?? "") == request.target, "path/query split")
        require(request.body.count <= LoopbackRequestParser.maximumBodyBytes, "body over the cap")
        let lengths = request.headers.filter { $0.key.lowercased() == "content-length" }
        require(lengths.count <= 1, "several Content-Length headers")
        let declared = lengths.first.map { Int($0.value) } ?? 0
        require(declared == request.body.count, "body of \(request.body.count) bytes for \(lengths)")
        require(
            Array(request.body) == Array(payload[(end + 4)..<(end + 4 + request.body.count)]),
            "the body is not the bytes after the head")
        for (name, value) in request.headers {
            require(!name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }, "header name")
            require(!value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control in a value")
            require(request.header(name) != nil, "header lookup")
        }
    }
}

/// Where the first blank line (`\r\n\r\n`) starts.
func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
}

func same(_ a: LoopbackRequestParser.State, _ b: LoopbackRequestParser.State) -> Bool {
    switch (a, b) {
    case (.needMore, .needMore): true
    case (.failed(let x), .failed(let y)): x.status == y.status
    case (.complete(let x), .complete(let y)):
        x.method == y.method && x.target == y.target && x.headers == y.headers && x.body == y.body
    default: false
    }
}

func describe(_ state: LoopbackRequestParser.State) -> String {
    switch state {
    case .needMore: "needMore"
    case .failed(let failure): "failed(\(failure.status))"
    case .complete(let request):
        "complete(\(request.method) \(request.target) \(request.headers.sorted { $0.key < $1.key }) \(request.body))"
    }
}

@_cdecl("FuzzLoopbackRequest_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
