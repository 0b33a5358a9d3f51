import Foundation
import Testing
import WardenCrypto

@testable import WardenJOSE

/// Regressions for what FuzzJWK found (Fuzz/RESULTS.md).
@Suite("Fuzz findings: JWK")
struct JWKFuzzFindingTests {
    /// `kid`, `alg`, `use` were interpolated into publicJSON without escaping: a crafted kid added members.
    @Test func publicJSONEscapesWhatItCopies() throws {
        let key = try ECPrivateKey(curve: .p256).publicKey
        let hostile = #"x","x":"AAAA","kid":"y\"# + "\u{1}"
        let jwk = try JWK(publicKey: key, keyID: hostile, algorithm: .es256)
        let json = try #require(jwk.publicJSON)
        let object = try JSONReader().parseObject(Array(json.utf8))
        #expect(object["kid"]?.stringValue == hostile)
        #expect(object.names.filter { $0 == "x" }.count == 1 && object.names.filter { $0 == "kid" }.count == 1)
        let reread = try JWK(json: json)
        #expect(reread.thumbprint == jwk.thumbprint && reread.keyID == hostile)
    }

    /// RFC 7518 §6.3.1.2: `e` must be minimal, or one key has several thumbprints.
    @Test func anExponentWithALeadingZeroIsRefused() throws {
        let rsa = try RSAPrivateKey(generatingBits: 2048).publicKey
        let good = try #require(try JWK(publicKey: rsa, keyID: nil, algorithm: nil).publicJSON)
        let padded = good.replacingOccurrences(of: #""e":"AQAB""#, with: #""e":"AAEAAQ""#)
        #expect(padded != good)
        #expect(throws: JOSEError(.invalidKey)) { try JWK(json: padded) }
    }
}
