import Foundation
import FuzzSupport
import WardenPasskeys

/// Arbitrary bytes through the strict CBOR decoder, the COSE key reader and the attestation-object path: a value
/// or a typed error, never a crash, a leak or a hang. Decoded values are re-encoded and decoded again: canonical
/// input must round-trip byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? CBORDecoder().decode(bytes) {
        let encoded = CBOREncoder.encode(value)
        guard encoded == bytes, (try? CBORDecoder().decode(encoded)) == value else {
            fatalError("canonical CBOR did not round-trip")
        }
    }
    _ = try? COSEKey(bytes: bytes)
    let rp = try! RelyingParty(id: "example.com", origins: ["https://example.com"])
    let clientData = Array(#"{"type":"webauthn.create","challenge":"AAAA","origin":"https://example.com"}"#.utf8)
    let response = RegistrationResponse(credentialID: [1], clientDataJSON: clientData, attestationObject: bytes)
    _ = try? rp.verifyRegistration(response, challenge: [0, 0, 0], userHandle: [0x75])
    return 0
}

@_cdecl("FuzzCBOR_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
