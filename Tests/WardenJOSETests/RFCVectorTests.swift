import Foundation
import Testing
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

/// Example values typed in from RFC 7515 Appendix A, RFC 8037 Appendix A.4 and RFC 7638 §3.1.
@Suite("RFC example values")
struct RFCVectorTests {
    static let payload =
        "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

    /// RFC 7515 A.1: HS256.
    @Test func rfc7515A1() throws {
        let keys = try JWKSet(
            json:
                #"{"keys":[{"kty":"oct","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}]}"#
        )
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.\(Self.payload).dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let verified = try JWSVerifier(keys: keys, allowedAlgorithms: [.hs256]).verify(token)
        #expect(verified.header.type == "JWT")
        let claims = try JSONReader().parseObject(verified.payload)
        #expect(claims["iss"]?.stringValue == "joe")
        #expect(claims["exp"]?.numberValue?.int64 == 1_300_819_380)
        #expect(claims["http://example.com/is_root"]?.boolValue == true)
        // The same token through the JWT layer, at a time when it was valid and one after it expired.
        let valid = JWTVerifier(
            keys: keys, allowedAlgorithms: [.hs256],
            policy: JWTVerifier.standardPolicy(issuer: "joe", acceptingAnyAudience: true),
            now: { Date(timeIntervalSince1970: 1_300_819_000) })
        #expect(try valid.verify(token).claims.issuer == "joe")
        let late = JWTVerifier(
            keys: keys, allowedAlgorithms: [.hs256], policy: JWTVerifier.standardPolicy(acceptingAnyAudience: true),
            now: { Date(timeIntervalSince1970: 1_300_819_380 + 61) })
        #expect(throws: JOSEError(.expired)) { try late.verify(token) }
    }

    /// RFC 7515 A.2: RS256.
    @Test func rfc7515A2() throws {
        let n =
            "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
        let signature =
            "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
        let keys = try JWKSet(json: #"{"keys":[{"kty":"RSA","n":"\#(n)","e":"AQAB"}]}"#)
        let token = "eyJhbGciOiJSUzI1NiJ9.\(Self.payload).\(signature)"
        #expect(try JWSVerifier(keys: keys, allowedAlgorithms: [.rs256]).verify(token).payload.count == 70)
        #expect(throws: JOSEError(.algorithmNotAllowed)) {
            try JWSVerifier(keys: keys, allowedAlgorithms: [.es256]).verify(token)
        }
        let tampered = "eyJhbGciOiJSUzI1NiJ9.\(Self.payload)x.\(signature)"
        #expect(throws: JOSEError.self) { try JWSVerifier(keys: keys, allowedAlgorithms: [.rs256]).verify(tampered) }
    }

    /// RFC 7515 A.3: ES256.
    @Test func rfc7515A3() throws {
        let keys = try JWKSet(
            json:
                #"{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#
        )
        let token =
            "eyJhbGciOiJFUzI1NiJ9.\(Self.payload).DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        #expect(try JWSVerifier(keys: keys, allowedAlgorithms: [.es256]).verify(token).header.algorithm == .es256)
    }

    /// RFC 8037 A.4: Ed25519 ("EdDSA"), and the same signature under RFC 9864's "Ed25519" name.
    @Test func rfc8037A4() throws {
        let keys = try JWKSet(
            json: #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#)
        let token =
            "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
        let verified = try JWSVerifier(keys: keys, allowedAlgorithms: [.edDSA]).verify(token)
        #expect(String(decoding: verified.payload, as: UTF8.self) == "Example of Ed25519 signing")
        // RFC 8037 A.1 private key: the seed gives the published public key.
        let seed = try Base64URL.decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")
        let signer = try Ed25519PrivateKey(seed: seed)
        #expect(keys.keys[0].publicKey?.spkiDER == signer.publicKey.spkiDER)
        let renamed = Mint.token(
            header: #"{"alg":"Ed25519"}"#, payload: "Example of Ed25519 signing", signer: .ed(signer))
        #expect(try JWSVerifier(keys: keys, allowedAlgorithms: [.ed25519]).verify(renamed).header.algorithm == .ed25519)
    }

    /// RFC 7638 §3.1 thumbprint.
    @Test func rfc7638Thumbprint() throws {
        let key = try JWK(
            json:
                #"{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#
        )
        #expect(key.thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }
}
