import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("Sign in with Apple identity tokens")
struct AppleTokenTests {
    static let t = Int(Date.fixed.timeIntervalSince1970)
    static let rawNonce = "raw-nonce-from-the-app"
    static let validator = AppleIdentityTokenVerifier(
        clientIDs: ["com.example.app"], keys: Keys.rsaSet, now: { .fixed })

    static func token(_ extra: String, aud: String = "com.example.app", iss: String = "https://appleid.apple.com")
        -> String
    {
        let claims =
            #"{"iss":"\#(iss)","aud":"\#(aud)","sub":"001234.abc","exp":\#(t + 600),"iat":\#(t),"nonce":"\#(AppleIdentityTokenVerifier.hashedNonce(rawNonce))"\#(extra)}"#
        return Mint.token(
            header: #"{"alg":"RS256","kid":"rsa1"}"#, payload: claims, signer: .rsa(Keys.rsa, pss: false, .sha256))
    }

    @Test func acceptsStringAndBooleanFlags() throws {
        let a = try Self.validator.verify(
            Self.token(
                #","email":"x@privaterelay.appleid.com","email_verified":"true","is_private_email":"true","real_user_status":2"#
            ),
            rawNonce: Self.rawNonce)
        #expect(
            a.subject == "001234.abc" && a.emailVerified == true && a.isPrivateEmail == true && a.realUserStatus == 2)
        let b = try Self.validator.verify(
            Self.token(#","email_verified":false,"is_private_email":false"#), rawNonce: Self.rawNonce)
        #expect(b.emailVerified == false && b.isPrivateEmail == false && b.realUserStatus == nil)
    }

    @Test func hashedNonceIsSHA256Hex() {
        // SHA-256("abc") from FIPS 180-4.
        #expect(
            AppleIdentityTokenVerifier.hashedNonce("abc")
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func rejections() {
        #expect(throws: JOSEError(.nonceMismatch)) { try Self.validator.verify(Self.token(""), rawNonce: "other") }
        #expect(throws: JOSEError(.nonceMismatch)) {  // the hashed value itself is not the raw nonce
            try Self.validator.verify(
                Self.token(""), rawNonce: AppleIdentityTokenVerifier.hashedNonce(Self.rawNonce))
        }
        #expect(throws: JOSEError(.audienceMismatch)) {
            try Self.validator.verify(Self.token("", aud: "com.evil.app"), rawNonce: Self.rawNonce)
        }
        #expect(throws: JOSEError(.issuerMismatch)) {
            try Self.validator.verify(Self.token("", iss: "https://appleid.apple.com.evil"), rawNonce: Self.rawNonce)
        }
        #expect(throws: JOSEError(.invalidClaim)) {
            try Self.validator.verify(Self.token(#","email_verified":"yes""#), rawNonce: Self.rawNonce)
        }
        #expect(throws: JOSEError(.invalidClaim)) {
            try Self.validator.verify(Self.token(#","real_user_status":"2""#), rawNonce: Self.rawNonce)
        }
    }

    /// Without the raw nonce a stolen identity token would sign in again: it is refused unless the caller says the
    /// flow has none.
    @Test func theNonceIsSkippedOnlyByChoice() throws {
        #expect(throws: JOSEError(.invalidConfiguration)) { try Self.validator.verify(Self.token(""), rawNonce: nil) }
        #expect(try Self.validator.verify(Self.token(""), rawNonce: nil, withoutNonce: true).subject == "001234.abc")
    }

    /// A token for several audiences must name, in `azp`, the client it was issued to — one of ours.
    @Test func severalAudiencesNeedAnAuthorizedParty() throws {
        let validator = AppleIdentityTokenVerifier(
            clientIDs: ["com.example.app", "com.example.web"], keys: Keys.rsaSet, now: { .fixed })
        func token(_ azp: String?) -> String {
            let azpMember = azp.map { #","azp":"\#($0)""# } ?? ""
            let claims =
                #"{"iss":"https://appleid.apple.com","aud":["com.example.app","com.example.web"],"sub":"001234.abc","exp":\#(Self.t + 600),"iat":\#(Self.t),"nonce":"\#(AppleIdentityTokenVerifier.hashedNonce(Self.rawNonce))"\#(azpMember)}"#
            return Mint.token(
                header: #"{"alg":"RS256","kid":"rsa1"}"#, payload: claims, signer: .rsa(Keys.rsa, pss: false, .sha256))
        }
        #expect(throws: JOSEError(.azpMismatch)) { try validator.verify(token(nil), rawNonce: Self.rawNonce) }
        #expect(throws: JOSEError(.azpMismatch)) {
            try validator.verify(token("com.evil.app"), rawNonce: Self.rawNonce)
        }
        #expect(try validator.verify(token("com.example.web"), rawNonce: Self.rawNonce).subject == "001234.abc")
    }
}
