import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

/// WebAuthn Level 3 §14.6.2–3: a relying party must not reveal whether an account exists. The options for an
/// unknown name have the shape of a known user's, and a refused sign-in reads the same and does the same work —
/// the decoy is verified through every check up to the P-256 signature, as a known credential with a wrong
/// signature is.
@Suite("Username anti-enumeration")
struct AccountPrivacyTests {
    typealias Ceremony = SoftwareAuthenticator.Ceremony
    static let secret = Array(repeating: UInt8(7), count: 32)

    static func challenge() throws -> PasskeyChallenge {
        try PasskeyChallenge(binding: "session-1", ceremony: .authentication)
    }

    /// The options' JSON as a shape: its keys, the descriptors' keys, and the set of lengths and transports allowed.
    static func shape(_ options: PasskeyRequestOptions) throws -> (keys: [String], descriptor: [[String]]) {
        let object = try JSONReader().parseObject(Array(options.json().utf8))
        let descriptors = object["allowCredentials"]?.arrayValue ?? []
        return (
            object.members.map(\.name).sorted(),
            descriptors.map { ($0.objectValue?.members.map(\.name) ?? []).sorted() }
        )
    }

    @Test func anUnknownNameGetsOptionsShapedLikeAKnownUsers() throws {
        let privacy = try AccountPrivacy(secret: Self.secret)
        var (_, record) = try AssertionTests.registered()
        record.transports = []  // as an Apple-platform registration stores it (AuthenticationServices reports none)
        let challenge = try Self.challenge()
        let known = privacy.requestOptions(
            relyingParty: PasskeyFixtures.rp, challenge: challenge, username: "alice", credentials: [record])
        let unknown = privacy.requestOptions(
            relyingParty: PasskeyFixtures.rp, challenge: challenge, username: "mallory", credentials: nil)
        let (knownKeys, knownDescriptors) = try Self.shape(known)
        let (unknownKeys, unknownDescriptors) = try Self.shape(unknown)
        #expect(knownKeys == unknownKeys)
        #expect(Set(unknownDescriptors) == Set(knownDescriptors), "each descriptor has type, id and transports")
        #expect((1...3).contains(unknown.allowCredentials.count))
        for descriptor in unknown.allowCredentials {
            #expect(AccountPrivacy.credentialIDLengths.contains(descriptor.id.count))
            #expect(descriptor.transports.isEmpty, "the default shape: no transports, as Apple registrations store")
        }
        // Decoys take the shape of the stored population: browsers' transports, security keys' longer IDs.
        let shaped = try AccountPrivacy(
            secret: Self.secret, decoyIDLengths: [64], decoyTransports: [["hybrid", "internal"]])
        #expect(shaped.decoyCredentials(for: "mallory").allSatisfy { $0.id.count == 64 && $0.transports.count == 2 })
        var browserRecord = record
        browserRecord.transports = ["hybrid", "internal"]
        let browserKnown = try Self.shape(
            shaped.requestOptions(
                relyingParty: PasskeyFixtures.rp, challenge: challenge, username: "alice", credentials: [browserRecord])
        )
        let browserUnknown = try Self.shape(
            shaped.requestOptions(
                relyingParty: PasskeyFixtures.rp, challenge: challenge, username: "mallory", credentials: nil))
        #expect(Set(browserKnown.descriptor) == Set(browserUnknown.descriptor))
        #expect(throws: PasskeyError(.invalidConfiguration)) {
            try AccountPrivacy(secret: Self.secret, decoyIDLengths: [8])
        }
        // Stable for the name, as a real account's list is; NFKC-equal names are one name; another name or another
        // secret gives other decoys; a known user without a passkey looks like any unknown name.
        #expect(privacy.allowCredentials(for: "mallory", credentials: nil) == unknown.allowCredentials)
        #expect(privacy.decoyCredentials(for: "ｍａｌｌｏｒｙ") == unknown.allowCredentials)
        #expect(privacy.decoyCredentials(for: "mallory2") != unknown.allowCredentials)
        let other = try AccountPrivacy(secret: Array(repeating: 8, count: 32))
        #expect(other.decoyCredentials(for: "mallory") != unknown.allowCredentials)
        #expect(privacy.allowCredentials(for: "bob", credentials: []) == privacy.decoyCredentials(for: "bob"))
        // Across many names the decoys spread over every count and length a real list can have.
        let lists = (0..<200).map { privacy.decoyCredentials(for: "user\($0)") }
        #expect(Set(lists.map(\.count)) == [1, 2, 3])
        #expect(Set(lists.flatMap { $0.map(\.id.count) }) == Set(AccountPrivacy.credentialIDLengths))
    }

    @Test func aRefusedSignInReadsTheSameAndRunsTheSameChecks() throws {
        let privacy = try AccountPrivacy(secret: Self.secret)
        var (authenticator, record) = try AssertionTests.registered()
        let rp = PasskeyFixtures.rp

        // Known user, wrong credential: the response is for the user's credential ID, but signed by another key.
        let challenge = PasskeyFixtures.challenge()
        var forged = Ceremony(challenge: challenge)
        forged.editSignature = { $0[$0.count / 2] ^= 0x01 }
        let wrong = try authenticator.assert(forged)
        // Unknown user: a credential ID the server does not have (one of the decoys it offered).
        var stranger = try SoftwareAuthenticator()
        var unknownCeremony = Ceremony(challenge: challenge)
        unknownCeremony.reportedCredentialID = privacy.decoyCredentials(for: "mallory")[0].id
        unknownCeremony.userHandle = [1, 2, 3]
        let unknown = try stranger.assert(unknownCeremony)

        let knownError = #expect(throws: PasskeyError.self) {
            try privacy.verifyAssertion(
                wrong, challenge: challenge, credential: record, relyingParty: rp, allowCredentials: [record.id])
        }
        let unknownError = #expect(throws: PasskeyError.self) {
            try privacy.verifyAssertion(
                unknown, challenge: challenge, credential: nil, relyingParty: rp,
                allowCredentials: privacy.decoyCredentials(for: "mallory").map(\.id))
        }
        #expect(knownError?.code == .signInFailed && unknownError?.code == .signInFailed)
        #expect(knownError?.reason == unknownError?.reason && knownError?.failureKind == unknownError?.failureKind)

        // The same work: both went through client data, authenticator data and backup state to the signature check.
        for (response, credential, allowed) in [
            (wrong, Optional(record), [record.id]),
            (unknown, nil, privacy.decoyCredentials(for: "mallory").map(\.id)),
        ] {
            let outcome = privacy.verify(
                response, challenge: challenge, credential: credential, relyingParty: rp, allowCredentials: allowed,
                requireUserVerification: false)
            guard case .failure(let error) = outcome else {
                Issue.record("a forged or unknown sign-in was accepted")
                continue
            }
            #expect(error.code == .invalidSignature, "stopped before the signature check: \(error)")
        }

        // A known credential refused early (a user handle that is not its owner's) spends the decoy's signature too:
        // the same last check as an unknown one, so the answer's timing does not tell them apart.
        var otherUser = Ceremony(challenge: challenge)
        otherUser.userHandle = [7, 7, 7]
        let mismatched = try authenticator.assert(otherUser)
        let early = privacy.verify(
            mismatched, challenge: challenge, credential: record, relyingParty: rp, allowCredentials: [record.id],
            requireUserVerification: false)
        guard case .failure(let earlyError) = early else {
            Issue.record("a sign-in naming another user was accepted")
            return
        }
        #expect(earlyError.code == .userHandleMismatch && AccountPrivacy.refusedBeforeTheSignature(earlyError))
        #expect(throws: PasskeyError(.signInFailed)) {
            try privacy.verifyAssertion(
                mismatched, challenge: challenge, credential: record, relyingParty: rp, allowCredentials: [record.id])
        }

        // The real sign-in still works through the same door.
        let good = try authenticator.assert(Ceremony(challenge: challenge))
        let result = try privacy.verifyAssertion(
            good, challenge: challenge, credential: record, relyingParty: rp, allowCredentials: [record.id])
        #expect(result.credentialID == record.id)
    }

    @Test func aShortSecretIsRefused() {
        #expect(throws: PasskeyError(.invalidConfiguration)) { try AccountPrivacy(secret: [1, 2, 3]) }
    }
}
