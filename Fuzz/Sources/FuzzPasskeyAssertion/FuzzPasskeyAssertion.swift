import Foundation
import FuzzSupport
import WardenPasskeys

/// Arbitrary bytes as a passkey sign-in response, end to end: JSON → ``AssertionResponse`` → `verifyAssertion`
/// against one stored credential (the committed seeds are responses its key signed, Fuzz/Seeds/make_signed_seeds.py).
/// A result or a typed ``PasskeyError``, never a crash, a leak or a hang. Oracle: the key signed exactly one
/// (authenticator data, client data) pair, so an accepted response carries exactly that pair, and the account it
/// names is the record's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let response = try? AssertionResponse(json: bytes) else { return 0 }
    for allowCredentials in [[Fixture.record.id], nil] {
        guard
            let result = try? Fixture.rp.verifyAssertion(
                response, challenge: Fixture.challenge, credential: Fixture.record, allowCredentials: allowCredentials)
        else { continue }
        require(response.authenticatorData == Fixture.signedAuthenticatorData, "accepted unsigned authenticator data")
        require(response.clientDataJSON == Fixture.signedClientData, "accepted an unsigned clientDataJSON")
        require(result.userHandle == Fixture.record.userHandle, "the result names another account than the record")
        require(result.credentialID == Fixture.record.id, "the result names another credential")
        require(result.newSignCount == 7, "the new signature counter is not the signed one")
    }
    return 0
}

enum Fixture {
    static let rp = try! RelyingParty(id: "example.com", origins: ["https://example.com"])
    static let challenge: [UInt8] = [0, 1, 2, 3]
    /// The fixed test key's public half (its private scalar is in make_signed_seeds.py).
    static let record = CredentialRecord(
        id: [1, 2, 3, 4],
        publicKey: Array(
            Data(
                base64Encoded:
                    "pQECAyYgASFYIOpR2cuv2as/2OYCa4U/h+Nub4UFVS4XCrGOq4hxRLdvIlggKsSPjQQaSWQ1n3h1twhoIyYrhTFdk039RHqIEySECTI="
            )!),
        algorithm: .es256, signCount: 0, userHandle: Array("user-1".utf8))
    /// SHA-256("example.com"), flags UP|UV, counter 7: the only authenticator data the key signed.
    static let signedAuthenticatorData = Array(
        Data(base64Encoded: "o3mm9u6vuaVeN4wRgDTidR5oL6ufLTCrE9ISVYbOGUcFAAAABw==")!)
    static let signedClientData = Array(
        #"{"type":"webauthn.get","challenge":"AAECAw","origin":"https://example.com","crossOrigin":false}"#.utf8)
}

@_cdecl("FuzzPasskeyAssertion_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
