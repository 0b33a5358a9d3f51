import Foundation
import FuzzSupport
import WardenPasskeys

/// Arbitrary bytes as authenticator data (alone, and inside a sign-in with a fixed key), and as a response JSON
/// document: a value or a typed error, never a crash, a leak or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? AuthenticatorData(bytes: bytes)
    _ = try? AssertionResponse(json: bytes)
    _ = try? RegistrationResponse(json: bytes)
    _ = try? CredentialRecord(json: bytes)
    let clientData = Array(#"{"type":"webauthn.get","challenge":"AAAA","origin":"https://example.com"}"#.utf8)
    let response = AssertionResponse(
        credentialID: [1], clientDataJSON: clientData, authenticatorData: bytes, signature: Array(bytes.prefix(72)))
    _ = try? Fixture.rp.verifyAssertion(
        response, challenge: [0, 0, 0], credential: Fixture.record, allowCredentials: [[1]])
    return 0
}

enum Fixture {
    static let rp = try! RelyingParty(id: "example.com", origins: ["https://example.com"])
    // A P-256 COSE key (py_webauthn's recorded EC2 credential).
    static let record = CredentialRecord(
        id: [1],
        publicKey: Array(
            Data(
                base64Encoded:
                    "pQECAyYgASFYIIeDTe+gN8A+zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA/Ngtkx0vGpvPHI="
            )!),
        algorithm: .es256, signCount: 0, userHandle: [0x75])
}

@_cdecl("FuzzAuthenticatorData_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
