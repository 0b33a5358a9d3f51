import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenTestSupport

@testable import WardenOAuth

/// OIDC Core §12.2 decides before any time check: a refreshed ID token that names someone else is refused, whether
/// or not its times also fail and whether or not the key set can be reached. Only a token that is the session's own
/// in every other respect may be "unchecked" (not stored, the session goes on).
@Suite("A refreshed ID token's identity is decided before its time")
struct RefreshedIdentityTests {
    static let issuer = "https://id.example.com"
    static let t = Int(Date.fixed.timeIntervalSince1970)
    static let original = Mint.token(
        header: #"{"alg":"ES256","kid":"ec1"}"#,
        payload: #"{"iss":"\#(issuer)","aud":"app","sub":"alice","exp":\#(t + 300),"iat":\#(t - 10),"nonce":"n1"}"#,
        signer: .ec(Keys.ec))

    /// A verification whose key set answers from `keys` (or, with nil, cannot be reached).
    static func verification(keys: JWKSet?) -> IDTokenVerification {
        let json = keys.map { set in "{\"keys\":[" + set.keys.compactMap(\.publicJSON).joined(separator: ",") + "]}" }
        let transport = RecordingTransport { _ in
            guard let json else { throw TransportError(.notConnected, "offline") }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
        }
        return IDTokenVerification(
            issuer: issuer, clientID: "app",
            keys: JWKSCache(url: URL(string: "https://id.example.com/jwks")!, transport: transport, now: { .fixed }),
            now: { .fixed })
    }

    static func response(_ payload: String, access: String = "at-2") -> TokenResponse {
        let idToken = Mint.token(header: #"{"alg":"ES256","kid":"ec1"}"#, payload: payload, signer: .ec(Keys.ec))
        return TokenResponse(accessToken: access, expiresIn: 300, refreshToken: "rt-2", idToken: idToken, scope: nil)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let payload: String
        var keysReachable = true
        /// nil: unchecked; otherwise the claim code the rejection names.
        let rejectedFor: String?
        var testDescription: String { name }
    }

    static let expired = "\"exp\":\(t - 3600),\"iat\":\(t - 4000)"
    static let future = "\"exp\":\(t + 3600),\"iat\":\(t + 600)"
    static let cases: [Case] = [
        Case(
            name: "only expired", payload: #"{"iss":"\#(issuer)","aud":"app","sub":"alice",\#(expired)}"#,
            rejectedFor: nil),
        Case(
            name: "only issued in the future", payload: #"{"iss":"\#(issuer)","aud":"app","sub":"alice",\#(future)}"#,
            rejectedFor: nil),
        Case(
            name: "another subject, also expired",
            payload: #"{"iss":"\#(issuer)","aud":"app","sub":"mallory",\#(expired)}"#, rejectedFor: "subject_mismatch"),
        Case(
            name: "another subject, also issued in the future",
            payload: #"{"iss":"\#(issuer)","aud":"app","sub":"mallory",\#(future)}"#, rejectedFor: "subject_mismatch"),
        Case(
            name: "another audience, also expired",
            payload: #"{"iss":"\#(issuer)","aud":"other-app","sub":"alice",\#(expired)}"#,
            rejectedFor: "audience_mismatch"),
        Case(
            name: "an at_hash for another access token, also expired",
            payload: #"{"iss":"\#(issuer)","aud":"app","sub":"alice","at_hash":"AAAAAAAAAAAAAAAAAAAAAA",\#(expired)}"#,
            rejectedFor: "at_hash_mismatch"),
        Case(
            name: "key set unreachable, same identity",
            payload: #"{"iss":"\#(issuer)","aud":"app","sub":"alice","exp":\#(t + 300),"iat":\#(t)}"#,
            keysReachable: false, rejectedFor: nil),
        Case(
            name: "key set unreachable, another subject",
            payload: #"{"iss":"\#(issuer)","aud":"app","sub":"mallory","exp":\#(t + 300),"iat":\#(t)}"#,
            keysReachable: false, rejectedFor: "subject_mismatch"),
        Case(
            name: "key set unreachable, another issuer",
            payload: #"{"iss":"https://evil.example.com","aud":"app","sub":"alice","exp":\#(t + 300),"iat":\#(t)}"#,
            keysReachable: false, rejectedFor: "issuer_mismatch"),
    ]

    @Test(arguments: cases)
    func identityDecidesBeforeTime(_ check: Case) async throws {
        let verification = Self.verification(keys: check.keysReachable ? Keys.ecSet : nil)
        let outcome = await verification.check(Self.response(check.payload), current: Self.original)
        switch (outcome, check.rejectedFor) {
        case (.unchecked, nil): break
        case (.rejected(let error), let code?):
            #expect(error.claimCode == code, "\(check.name): \(error)")
        default:
            Issue.record("\(check.name): \(outcome)")
        }
    }

    /// The refreshed token with no time problem at all is valid, so the cases above are about identity, not setup.
    @Test func theSameIdentityInTimeIsValid() async {
        let payload = #"{"iss":"\#(Self.issuer)","aud":"app","sub":"alice","exp":\#(Self.t + 300),"iat":\#(Self.t)}"#
        guard
            case .valid = await Self.verification(keys: Keys.ecSet).check(
                Self.response(payload), current: Self.original)
        else {
            Issue.record("a continuing, timely token was not valid")
            return
        }
    }

    /// In JOSE too: continuity is checked before time, so the error names the identity.
    @Test func theVerifierNamesTheIdentityChangeNotTheTime() throws {
        let verifier = IDTokenVerifier(issuer: Self.issuer, clientID: "app", keys: Keys.ecSet, now: { .fixed })
        let original = try verifier.verify(Self.original, nonce: "n1")
        let token = Mint.token(
            header: #"{"alg":"ES256","kid":"ec1"}"#,
            payload: #"{"iss":"\#(Self.issuer)","aud":"app","sub":"mallory",\#(Self.expired)}"#, signer: .ec(Keys.ec))
        #expect(throws: JOSEError(.subjectMismatch)) { try verifier.verifyRefreshed(token, original: original) }
    }
}
