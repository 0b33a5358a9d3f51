import Foundation
import FuzzSupport
import WardenCrypto

/// Feeds arbitrary bytes to the PEM/DER certificate reader and the SPKI key reader: any input must produce a
/// value or a typed error, never a crash, a leak or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? CertificatePin.pins(fromCertificates: bytes)
    _ = try? PublicKey(spkiDER: bytes)
    if let text = String(bytes: bytes, encoding: .utf8) { _ = try? PublicKey(pem: text) }
    return 0
}

@_cdecl("FuzzCertificate_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
