import Foundation
import FuzzSupport
import WardenJOSE

/// Feeds arbitrary bytes to the strict JSON reader, the base64url decoder and the compact-JWS parser: every
/// input must give a value or a typed error — no crash, no hang, no leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSONReader(maximumBytes: 1 << 16, maximumDepth: 16).parse(bytes)
    if let text = String(bytes: bytes, encoding: .utf8) {
        _ = try? Base64URL.decode(text)
        _ = try? JWSCompact(text)
        _ = try? JWK(json: text)
        _ = try? JWKSet(json: text)
    }
    return 0
}

@_cdecl("FuzzJSON_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
