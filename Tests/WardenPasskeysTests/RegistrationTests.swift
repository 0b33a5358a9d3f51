import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

@Suite("Passkey registration (WebAuthn L3 §7.1)")
struct RegistrationTests {
    typealias Ceremony = SoftwareAuthenticator.Ceremony

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .ed25519, .rs256, .ps256])
    func noneAttestationForEveryAlgorithm(algorithm: COSEAlgorithm) throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(Ceremony(challenge: challenge))
        let result = try PasskeyFixtures.rp.verifyRegistration(
            response, challenge: challenge, userHandle: [1, 2, 3], requireUserVerification: true)
        let record = result.credential
        #expect(record.id == authenticator.credentialID)
        #expect(record.algorithm == algorithm)
        #expect(record.publicKey == authenticator.coseKey)
        #expect(try COSEKey(bytes: record.publicKey).publicKey.spkiDER == authenticator.publicKey.spkiDER)
        #expect(record.backupEligible && record.backedUp && record.uvInitialized)
        #expect(record.aaguid == authenticator.aaguid)
        #expect(record.transports == ["internal", "hybrid"])
        #expect(record.attestationFormat == .none && record.attestationType == .none)
        // The JSON record round-trips.
        #expect(try CredentialRecord(json: Array(record.json().utf8)) == record)
    }

    @Test func packedSelfAttestation() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(Ceremony(challenge: challenge), attestation: .packedSelf)
        let record = try PasskeyFixtures.rp.verifyRegistration(
            response, challenge: challenge, userHandle: PasskeyFixtures.userHandle
        ).credential
        #expect(record.attestationFormat == .packed && record.attestationType == .selfAttestation)
    }

    @Test func packedChainTrustedUnverifiedAndUntrusted() throws {
        let pki = try PasskeyFixtures.PKI()
        let authenticator = try SoftwareAuthenticator(.es256)
        let (leafKey, leaf) = try pki.leaf {
            $0.extensions = [CertificateBuilder.aaguidExtension(authenticator.aaguid)]
        }
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(
            Ceremony(challenge: challenge),
            attestation: .packedX5C(leafKey: leafKey, chain: [leaf, pki.intermediateDER]))

        // No roots for packed: the signature is checked, the chain is not.
        #expect(
            try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: challenge, userHandle: PasskeyFixtures.userHandle
            ).credential.attestationType
                == .unverified)

        var rp = PasskeyFixtures.rp
        rp.attestation.trustAnchors[.packed] = pki.roots
        rp.attestation.requireTrustedAttestation = true
        #expect(
            try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle).credential
                .attestationType == .trusted)

        // Another vendor's root.
        rp.attestation.trustAnchors[.packed] = try PasskeyFixtures.PKI(name: "Other Vendor").roots
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }

        // Trust required: none and self attestation are refused.
        let plain = try authenticator.register(Ceremony(challenge: challenge))
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try rp.verifyRegistration(plain, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
        let selfSigned = try authenticator.register(Ceremony(challenge: challenge), attestation: .packedSelf)
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try rp.verifyRegistration(selfSigned, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
    }

    @Test func packedChainMissingIntermediateOrExpired() throws {
        let pki = try PasskeyFixtures.PKI()
        let authenticator = try SoftwareAuthenticator(.es256)
        var rp = PasskeyFixtures.rp
        rp.attestation.trustAnchors[.packed] = pki.roots
        let challenge = PasskeyFixtures.challenge()
        let (leafKey, leaf) = try pki.leaf()
        let noIntermediate = try authenticator.register(
            Ceremony(challenge: challenge), attestation: .packedX5C(leafKey: leafKey, chain: [leaf]))
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try rp.verifyRegistration(noIntermediate, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }

        let (oldKey, old) = try pki.leaf { $0.notAfter = Date(timeIntervalSince1970: 1_700_000_000) }
        let expired = try authenticator.register(
            Ceremony(challenge: challenge), attestation: .packedX5C(leafKey: oldKey, chain: [old, pki.intermediateDER]))
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try rp.verifyRegistration(expired, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
        // ...and accepted when judged at a date inside its validity.
        rp.attestation.certificateValidationDate = Date(timeIntervalSince1970: 1_650_000_000)
        #expect(
            try rp.verifyRegistration(expired, challenge: challenge, userHandle: PasskeyFixtures.userHandle).credential
                .attestationType == .trusted)
    }

    /// §8.2.1: each certificate requirement, fed a certificate that breaks it.
    @Test(arguments: [
        "version1", "noCountry", "lowercaseCountry", "noOrganization", "wrongOU", "noCommonName", "isCA",
        "criticalAAGUID", "otherAAGUID",
    ])
    func packedCertificateRequirements(violation: String) throws {
        let pki = try PasskeyFixtures.PKI()
        let authenticator = try SoftwareAuthenticator(.es256)
        let (leafKey, leaf) = try pki.leaf { builder in
            func drop(_ oid: String) { builder.subject.removeAll { $0.oid == oid } }
            switch violation {
            case "version1": builder.version = 1
            case "noCountry": drop("2.5.4.6")
            case "lowercaseCountry": builder.subject[0] = ("2.5.4.6", "se")
            case "noOrganization": drop("2.5.4.10")
            case "wrongOU": builder.subject[2] = ("2.5.4.11", "Authenticator")
            case "noCommonName": drop("2.5.4.3")
            case "isCA": builder.isCA = true
            case "criticalAAGUID":
                builder.extensions = [CertificateBuilder.aaguidExtension(authenticator.aaguid, critical: true)]
            default: builder.extensions = [CertificateBuilder.aaguidExtension(Array(repeating: 7, count: 16))]
            }
        }
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(
            Ceremony(challenge: challenge),
            attestation: .packedX5C(leafKey: leafKey, chain: [leaf, pki.intermediateDER]))
        #expect(throws: PasskeyError(.invalidAttestation)) {
            try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
    }

    @Test func appleAttestation() throws {
        let pki = try PasskeyFixtures.PKI(name: "Test Apple WebAuthn Root")
        let authenticator = try SoftwareAuthenticator(.es256)
        var rp = PasskeyFixtures.rp
        rp.attestation.trustAnchors[.apple] = pki.roots
        let challenge = PasskeyFixtures.challenge()
        let attestation = SoftwareAuthenticator.Attestation.apple(
            caKey: pki.intermediateKey, ca: pki.intermediate, intermediates: [pki.intermediateDER])
        let response = try authenticator.register(Ceremony(challenge: challenge), attestation: attestation)
        let record = try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            .credential
        #expect(record.attestationFormat == .apple && record.attestationType == .trusted)

        // The built-in anchor is Apple's real root, which did not issue the test chain.
        #expect(throws: PasskeyError(.untrustedAttestation)) {
            try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
        // A nonce for other data: the client data changes after the certificate was made.
        let other = try authenticator.register(
            Ceremony(challenge: PasskeyFixtures.challenge()), attestation: attestation)
        let swapped = RegistrationResponse(
            credentialID: other.credentialID, clientDataJSON: response.clientDataJSON,
            attestationObject: other.attestationObject)
        #expect(throws: PasskeyError(.invalidAttestation)) {
            try rp.verifyRegistration(swapped, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
        // A certificate for a different key than the credential's.
        let stranger = try SoftwareAuthenticator(.es256)
        var mixed = Ceremony(challenge: challenge)
        let strangerStatement = try stranger.register(Ceremony(challenge: challenge), attestation: attestation)
        let strangerObject = try CBORDecoder().decode(strangerStatement.attestationObject)
        mixed.editStatement = { entries in
            if case .map(let statement)? = strangerObject["attStmt"] { entries = statement }
        }
        let wrongKey = try authenticator.register(mixed, attestation: attestation)
        #expect(throws: PasskeyError(.invalidAttestation)) {
            try rp.verifyRegistration(wrongKey, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
    }

    @Test func appleStatementShape() throws {
        let pki = try PasskeyFixtures.PKI(name: "Test Apple WebAuthn Root")
        let authenticator = try SoftwareAuthenticator(.es256)
        var rp = PasskeyFixtures.rp
        rp.attestation.trustAnchors[.apple] = pki.roots
        let challenge = PasskeyFixtures.challenge()
        let attestation = SoftwareAuthenticator.Attestation.apple(
            caKey: pki.intermediateKey, ca: pki.intermediate, intermediates: [pki.intermediateDER])
        // A well-formed packed leaf in place of the credential certificate: no nonce extension.
        let (_, packedLeaf) = try pki.leaf()
        let edits: [(String, (inout [CBORMapEntry]) -> Void)] = [
            ("no x5c", { $0.removeAll { $0.key == .text("x5c") } }),
            ("an alg member", { $0.append(CBORMapEntry(key: .text("alg"), value: .negative(-7))) }),
            ("x5c empty", { $0 = [CBORMapEntry(key: .text("x5c"), value: .array([]))] }),
            (
                "leaf without a nonce",
                {
                    $0 = [
                        CBORMapEntry(
                            key: .text("x5c"), value: .array([.bytes(packedLeaf), .bytes(pki.intermediateDER)]))
                    ]
                }
            ),
        ]
        for (name, edit) in edits {
            var ceremony = Ceremony(challenge: challenge)
            ceremony.editStatement = edit
            let response = try authenticator.register(ceremony, attestation: attestation)
            #expect(throws: PasskeyError(.invalidAttestation), "\(name)") {
                try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            }
        }
    }

    @Test(arguments: ["none", "packed", "apple"])
    func statementMustBeAMap(format: String) throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let challenge = PasskeyFixtures.challenge()
        for statement in [CBORValue.text("x5c"), .array([]), .bytes([])] {
            let response = try authenticator.register(
                Ceremony(challenge: challenge), attestation: .custom(format: format, statement: statement))
            #expect(throws: PasskeyError(.invalidAttestation)) {
                try PasskeyFixtures.rp.verifyRegistration(
                    response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            }
        }
    }

    @Test func unknownFormatsAreRejectedUnlessAcceptedAsNone() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let challenge = PasskeyFixtures.challenge()
        let response = try authenticator.register(
            Ceremony(challenge: challenge), attestation: .custom(format: "tpm", statement: .map([])))
        #expect(throws: PasskeyError(.unsupportedAttestation)) {
            try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
        }
        var rp = PasskeyFixtures.rp
        rp.attestation.acceptsUnknownFormatsAsNone = true
        let record = try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            .credential
        #expect(record.attestationFormat.rawValue == "tpm" && record.attestationType == .none)
    }

    // MARK: py_webauthn's recorded registrations

    @Test(arguments: ["packed_yubikey_firefox", "packed_okp_public_key", "apple_passkey"])
    func recordedRegistrations(name: String) throws {
        let fixtures = try PasskeyFixtures.recorded()
        let item = try #require(
            fixtures["registrations"]?.arrayValue?.compactMap(\.objectValue).first {
                $0["name"]?.stringValue == name
            })
        var rp = try RelyingParty(id: item["rpId"]!.stringValue!, origins: [item["origin"]!.stringValue!])
        let roots = item["roots"]!.stringValue!
        let format = AttestationFormat(rawValue: item["format"]!.stringValue!)
        if roots != "apple" {
            rp.attestation.trustAnchors[format] = try X509Certificate.certificates(
                pemOrDER: PasskeyFixtures.data(roots))
        }
        rp.attestation.requireTrustedAttestation = true
        if let date = item["validAt"]?.stringValue {
            rp.attestation.certificateValidationDate = ISO8601DateFormatter().date(from: date)
        }
        let response = try RegistrationResponse(json: PasskeyFixtures.serialize(item["response"]!))
        let challenge = try Base64URL.decode(item["challenge"]!.stringValue!)
        let record = try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            .credential
        #expect(record.attestationFormat == format)
        #expect(record.attestationType == .trusted)
        #expect(record.algorithm.rawValue == item["algorithm"]!.numberValue!.int64!)
        #expect(Base64URL.encode(record.id) == item["response"]!.objectValue!["id"]!.stringValue!)

        // The apple certificates expired in 2021: judged today, the chain is refused.
        if roots == "apple" {
            rp.attestation.certificateValidationDate = nil
            #expect(throws: PasskeyError(.untrustedAttestation)) {
                try rp.verifyRegistration(response, challenge: challenge, userHandle: PasskeyFixtures.userHandle)
            }
        }
    }
}
