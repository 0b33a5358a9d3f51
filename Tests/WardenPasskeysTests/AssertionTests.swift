import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

@Suite("Passkey sign-in (WebAuthn L3 §7.2)")
struct AssertionTests {
    typealias Ceremony = SoftwareAuthenticator.Ceremony

    /// A registered authenticator and its record.
    static func registered(_ algorithm: COSEAlgorithm = .es256, handle: [UInt8] = [9, 9, 9]) throws -> (
        SoftwareAuthenticator, CredentialRecord
    ) {
        let authenticator = try SoftwareAuthenticator(algorithm)
        let challenge = PasskeyFixtures.challenge()
        let record = try PasskeyFixtures.rp.verifyRegistration(
            try authenticator.register(Ceremony(challenge: challenge)), challenge: challenge, userHandle: handle
        ).credential
        return (authenticator, record)
    }

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .ed25519, .rs256, .ps256])
    func signInWithEveryAlgorithm(algorithm: COSEAlgorithm) throws {
        var (authenticator, record) = try Self.registered(algorithm)
        for round in 1...3 {
            let challenge = PasskeyFixtures.challenge()
            let response = try authenticator.assert(Ceremony(challenge: challenge))
            let result = try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: challenge, credential: record, allowCredentials: [record.id],
                requireUserVerification: true)
            #expect(result.newSignCount == UInt32(round))
            #expect(result.userVerified && result.backedUp && !result.signCountRegressed)
            record = record.updated(by: result)
        }
        #expect(record.signCount == 3)
    }

    /// WebAuthn L3 §7.2 step 25: a credential registered without user verification records it at the first
    /// user-verified sign-in, and keeps it after one without.
    @Test func theFirstVerifiedSignInInitialisesUserVerification() throws {
        var (_, record) = try Self.registered()
        record.uvInitialized = false
        func result(verified: Bool) -> AssertionResult {
            AssertionResult(
                credentialID: record.id, userHandle: record.userHandle, newSignCount: record.signCount + 1,
                userVerified: verified, backedUp: true,
                signCountRegressed: false, extensions: nil)
        }
        #expect(!record.updated(by: result(verified: false)).uvInitialized)
        record = record.updated(by: result(verified: true))
        #expect(record.uvInitialized)
        #expect(record.updated(by: result(verified: false)).uvInitialized)
    }

    @Test func discoverableSignInNeedsTheRightUserHandle() throws {
        var (authenticator, record) = try Self.registered(handle: [1, 2, 3])
        var ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        ceremony.userHandle = [1, 2, 3]
        let good = try authenticator.assert(ceremony)
        #expect(
            try PasskeyFixtures.rp.verifyAssertion(
                good, challenge: ceremony.challenge, credential: record, expectedUserHandle: [1, 2, 3]
            ).newSignCount == 1)

        ceremony.userHandle = nil
        let anonymous = try authenticator.assert(ceremony)
        #expect(throws: PasskeyError(.userHandleMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(anonymous, challenge: ceremony.challenge, credential: record)
        }
        ceremony.userHandle = [1, 2, 4]
        let other = try authenticator.assert(ceremony)
        #expect(throws: PasskeyError(.userHandleMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(
                other, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
        }
        // The server expects another account than the one the credential was registered for.
        ceremony.userHandle = [1, 2, 3]
        let genuine = try authenticator.assert(ceremony)
        #expect(throws: PasskeyError(.userHandleMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(
                genuine, challenge: ceremony.challenge, credential: record, expectedUserHandle: [1, 2, 4])
        }
        // A record without an account is refused rather than trusting the response.
        record.userHandle = []
        #expect(throws: PasskeyError(.invalidConfiguration)) {
            try PasskeyFixtures.rp.verifyAssertion(genuine, challenge: ceremony.challenge, credential: record)
        }
    }

    /// Issue 32 item 5: the user handle is not signed, so a sign-in names the account the credential was
    /// registered for — never the one the response claims.
    @Test func theAccountComesFromTheRecordNotTheResponse() throws {
        var (authenticator, record) = try Self.registered(handle: Array("alice".utf8))
        // With allowCredentials (a known user) and no userHandle in the response: the record's account.
        var ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        let plain = try authenticator.assert(ceremony)
        let result = try PasskeyFixtures.rp.verifyAssertion(
            plain, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
        #expect(result.userHandle == Array("alice".utf8))
        record = record.updated(by: result)
        // A response naming another account (an unsigned field anyone on the path can set) is refused.
        ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        ceremony.userHandle = Array("mallory".utf8)
        let claimed = try authenticator.assert(ceremony)
        #expect(throws: PasskeyError(.userHandleMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(
                claimed, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
        }
        // The forged field rewritten into a genuine response (the signature does not cover it): still refused.
        ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        ceremony.userHandle = Array("alice".utf8)
        let genuine = try authenticator.assert(ceremony)
        let forged = AssertionResponse(
            credentialID: genuine.credentialID, clientDataJSON: genuine.clientDataJSON,
            authenticatorData: genuine.authenticatorData, signature: genuine.signature,
            userHandle: Array("mallory".utf8))
        #expect(throws: PasskeyError(.userHandleMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(forged, challenge: ceremony.challenge, credential: record)
        }
        #expect(
            try PasskeyFixtures.rp.verifyAssertion(genuine, challenge: ceremony.challenge, credential: record)
                .userHandle == Array("alice".utf8))
    }

    @Test func registrationRequiresAnAccount() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(Ceremony(challenge: challenge))
        for handle in [[], [UInt8](repeating: 1, count: 65)] {
            #expect(throws: PasskeyError(.invalidConfiguration)) {
                try PasskeyFixtures.rp.verifyRegistration(response, challenge: challenge, userHandle: handle)
            }
        }
        let record = try PasskeyFixtures.rp.verifyRegistration(
            response, challenge: challenge, userHandle: [UInt8](repeating: 1, count: 64)
        ).credential
        #expect(record.userHandle.count == 64)
        // The stored JSON carries it, and a stored record without it does not load.
        #expect(try CredentialRecord(json: Array(record.json().utf8)) == record)
        let json = record.json().replacingOccurrences(
            of: #""userHandle":"\#(Base64URL.encode(record.userHandle))","#, with: "")
        #expect(!json.contains("userHandle"))
        #expect(throws: PasskeyError(.malformed)) { try CredentialRecord(json: Array(json.utf8)) }
    }

    @Test func allowCredentialsIsRespected() throws {
        var (authenticator, record) = try Self.registered()
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.assert(Ceremony(challenge: challenge))
        #expect(throws: PasskeyError(.credentialNotAllowed)) {
            try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: challenge, credential: record, allowCredentials: [[1, 2, 3]])
        }
        // The response names another credential than the stored record.
        record.id = [7, 7, 7]
        #expect(throws: PasskeyError(.credentialIDMismatch)) {
            try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: challenge, credential: record, allowCredentials: [response.credentialID])
        }
    }

    @Test func signCountRegressionIsRejectedOrReported() throws {
        var (authenticator, record) = try Self.registered()
        record.signCount = 10
        var ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        for count: UInt32 in [10, 9, 0] {
            ceremony.signCount = count
            let response = try authenticator.assert(ceremony)
            #expect(throws: PasskeyError(.signCountRegression)) {
                try PasskeyFixtures.rp.verifyAssertion(
                    response, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
            }
            var reporting = PasskeyFixtures.rp
            reporting.signCountPolicy = .report
            let result = try reporting.verifyAssertion(
                response, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
            #expect(result.signCountRegressed && result.newSignCount == 10)
        }
        // Authenticators without a counter (always 0) are fine while the record is 0 too.
        record.signCount = 0
        ceremony.signCount = 0
        let zero = try authenticator.assert(ceremony)
        #expect(
            try PasskeyFixtures.rp.verifyAssertion(
                zero, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id]
            ).newSignCount == 0)
    }

    @Test func backupEligibilityMustNotChange() throws {
        var (authenticator, record) = try Self.registered()
        var ceremony = Ceremony(challenge: PasskeyFixtures.challenge())
        ceremony.flags = 0x05  // UP | UV, BE cleared
        let response = try authenticator.assert(ceremony)
        #expect(throws: PasskeyError(.backupEligibilityChanged)) {
            try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
        }
        record.backupEligible = false
        #expect(
            try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id]
            ).backedUp == false)
    }

    // MARK: py_webauthn's recorded assertions

    @Test(arguments: [
        "ec2_public_key", "rsa_public_key", "incorrect_public_key", "uv_required_but_false", "okp_public_key",
        "multiple_expected_origins",
    ])
    func recordedAssertions(name: String) throws {
        let fixtures = try PasskeyFixtures.recorded()
        let item = try #require(
            fixtures["assertions"]?.arrayValue?.compactMap(\.objectValue).first {
                $0["name"]?.stringValue == name
            })
        let origins =
            [item["origin"]!.stringValue!] + (item["extraOrigins"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let rp = try RelyingParty(id: item["rpId"]!.stringValue!, origins: Set(origins))
        let response = try AssertionResponse(json: PasskeyFixtures.serialize(item["response"]!))
        let key = try COSEKey(bytes: try Base64URL.decode(item["publicKey"]!.stringValue!))
        let record = CredentialRecord(
            id: response.credentialID, publicKey: key.encoded, algorithm: key.algorithm,
            signCount: UInt32(item["signCount"]!.numberValue!.int64!),
            userHandle: response.userHandle ?? PasskeyFixtures.userHandle)
        let verify = {
            try rp.verifyAssertion(
                response, challenge: try Base64URL.decode(item["challenge"]!.stringValue!), credential: record,
                allowCredentials: [record.id], requireUserVerification: item["requireUV"]!.boolValue!)
        }
        let expect = item["expect"]!.objectValue!
        if let code = expect["error"]?.stringValue {
            #expect { try verify() } throws: { ($0 as? PasskeyError)?.codeName == code }
        } else {
            #expect(try verify().newSignCount == UInt32(expect["newSignCount"]!.numberValue!.int64!))
        }
    }
}
