import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

/// Every field of a ceremony, changed on its own (before signing, so the check under test is the one that fires),
/// must be refused with its own reason code.
@Suite("Passkey tampering table")
struct TamperingTests {
    typealias Ceremony = SoftwareAuthenticator.Ceremony

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: String
        let edit: @Sendable (inout Ceremony) -> Void
        var testDescription: String { name }
    }

    /// Changes that apply to both ceremonies.
    static let shared: [Case] = [
        Case(name: "wrong type", expected: "type_mismatch") { $0.type = "webauthn.other" },
        Case(name: "other challenge", expected: "challenge_mismatch") { $0.challenge = Array(repeating: 1, count: 32) },
        Case(name: "foreign origin", expected: "origin_not_allowed") { $0.origin = "https://evil.example" },
        Case(name: "origin with path", expected: "origin_not_allowed") { $0.origin = "https://example.com/" },
        Case(name: "http origin", expected: "origin_not_allowed") { $0.origin = "http://example.com" },
        Case(name: "cross-origin iframe", expected: "cross_origin_not_allowed") { $0.crossOrigin = true },
        Case(name: "topOrigin without crossOrigin", expected: "top_origin_not_allowed") {
            $0.topOrigin = "https://top.example"
        },
        Case(name: "clientDataJSON not JSON", expected: "malformed") { $0.clientDataJSON = Array("nope".utf8) },
        Case(name: "clientDataJSON duplicate member", expected: "malformed") {
            $0.clientDataJSON = Array(
                #"{"type":"webauthn.get","type":"webauthn.create","challenge":"AA","origin":"x"}"#.utf8)
        },
        Case(name: "clientDataJSON challenge padded", expected: "malformed") {
            $0.clientDataJSON = Array(
                #"{"type":"webauthn.get","challenge":"AA==","origin":"https://example.com"}"#.utf8)
        },
        Case(name: "rpIdHash of another RP", expected: "rp_id_mismatch") { $0.rpID = "evil.example" },
        Case(name: "rpIdHash of a parent domain", expected: "rp_id_mismatch") { $0.rpID = "com" },
        Case(name: "UP clear", expected: "user_not_present") { $0.flags = 0x1C },
        Case(name: "UV clear with UV required", expected: "user_not_verified") { $0.flags = 0x19 },
        Case(name: "BS without BE", expected: "invalid_flags") { $0.flags = 0x15 },
        Case(name: "authenticator data truncated", expected: "malformed") {
            $0.editAuthenticatorData = { $0 = Array($0.prefix(36)) }
        },
        Case(name: "trailing bytes", expected: "malformed") { $0.editAuthenticatorData = { $0 += [0] } },
        Case(name: "ED flag without extensions", expected: "invalid_flags") {
            $0.editAuthenticatorData = { $0[32] |= 0x80 }
        },
        Case(name: "rawId of another credential", expected: "credential_id_mismatch") {
            $0.reportedCredentialID = [1, 2, 3]
        },
    ]

    /// Assertion-only changes (a `none` registration carries no signature).
    static let signatures: [Case] = [
        Case(name: "signature flipped", expected: "invalid_signature") { $0.editSignature = { $0[$0.count - 5] ^= 1 } },
        Case(name: "signature truncated", expected: "invalid_signature") { $0.editSignature = { $0.removeLast() } },
        Case(name: "signature empty", expected: "invalid_signature") { $0.editSignature = { $0 = [] } },
    ]

    /// Registration-only changes.
    static let registrationOnly: [Case] = [
        Case(name: "credential ID over 1023 bytes", expected: "malformed") {
            $0.editAuthenticatorData = { data in
                // Rebuild the attested part with a 1024-byte ID.
                let key = Array(data[(37 + 18 + 32)...])
                data = Array(data[0..<(37 + 16)]) + [0x04, 0x00] + Array(repeating: 1, count: 1024) + key
            }
        },
        Case(name: "credential key with wrong alg for its curve", expected: "invalid_key") {
            $0.editAuthenticatorData = { data in
                // alg -7 (0x26) → -35 (0x38 0x22) keeps P-256 coordinates: an ES384 key on P-256.
                if let index = data.indices.dropFirst(37 + 18 + 32).first(where: {
                    data[$0] == 0x03 && data[$0 + 1] == 0x26
                }) {
                    data.replaceSubrange((index + 1)...(index + 1), with: [0x38, 0x22])
                    data.replaceSubrange((37 + 16)...(37 + 17), with: [0x00, 0x20])
                }
            }
        },
        Case(name: "attestation statement for none", expected: "invalid_attestation") {
            $0.editStatement = { $0 = [CBORMapEntry(key: .text("sig"), value: .bytes([1]))] }
        },
    ]

    static let packedOnly: [Case] = [
        Case(name: "packed alg differs from credential", expected: "invalid_attestation") {
            $0.editStatement = { entries in
                entries = entries.map { $0.key == .text("alg") ? CBORMapEntry(key: $0.key, value: .negative(-8)) : $0 }
            }
        },
        Case(name: "packed signature flipped", expected: "invalid_signature") { $0.editSignature = { $0[10] ^= 1 } },
        Case(name: "packed without sig", expected: "invalid_attestation") {
            $0.editStatement = { $0.removeAll { $0.key == .text("sig") } }
        },
        Case(name: "packed without alg", expected: "invalid_attestation") {
            $0.editStatement = { $0.removeAll { $0.key == .text("alg") } }
        },
        Case(name: "packed alg as text", expected: "invalid_attestation") {
            $0.editStatement = { entries in
                entries = entries.map { $0.key == .text("alg") ? CBORMapEntry(key: $0.key, value: .text("ES256")) : $0 }
            }
        },
        Case(name: "packed sig as text", expected: "invalid_attestation") {
            $0.editStatement = { entries in
                entries = entries.map { $0.key == .text("sig") ? CBORMapEntry(key: $0.key, value: .text("sig")) : $0 }
            }
        },
        Case(name: "packed x5c not an array", expected: "invalid_attestation") {
            $0.editStatement = { $0.append(CBORMapEntry(key: .text("x5c"), value: .bytes([0x30, 0x00]))) }
        },
        Case(name: "packed x5c empty", expected: "invalid_attestation") {
            $0.editStatement = { $0.append(CBORMapEntry(key: .text("x5c"), value: .array([]))) }
        },
        Case(name: "packed x5c of nine", expected: "invalid_attestation") {
            $0.editStatement = {
                $0.append(
                    CBORMapEntry(key: .text("x5c"), value: .array(Array(repeating: .bytes([0x30, 0x00]), count: 9))))
            }
        },
        Case(name: "packed x5c entry as text", expected: "invalid_attestation") {
            $0.editStatement = { $0.append(CBORMapEntry(key: .text("x5c"), value: .array([.text("certificate")]))) }
        },
        Case(name: "packed x5c entry not a certificate", expected: "invalid_attestation") {
            $0.editStatement = { $0.append(CBORMapEntry(key: .text("x5c"), value: .array([.bytes([0x30, 0x00])]))) }
        },
        Case(name: "packed ecdaaKeyId", expected: "invalid_attestation") {
            $0.editStatement = { $0.append(CBORMapEntry(key: .text("ecdaaKeyId"), value: .bytes([1]))) }
        },
        Case(name: "packed unsupported alg", expected: "unsupported_algorithm") {
            $0.editStatement = { entries in
                entries = entries.map {
                    $0.key == .text("alg") ? CBORMapEntry(key: $0.key, value: .negative(-65535)) : $0
                }
            }
        },
    ]

    static func expect(_ code: String, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            let name = (error as? PasskeyError)?.codeName
            if name != code { Issue.record("got \(name ?? "\(error)"), expected \(code)") }
            return name == code
        }
    }

    @Test(arguments: shared + registrationOnly)
    func registration(_ tamper: Case) throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        tamper.edit(&ceremony)
        let response = try authenticator.register(ceremony)
        Self.expect(tamper.expected) {
            _ = try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: Array(repeating: 42, count: 32), userHandle: PasskeyFixtures.userHandle,
                requireUserVerification: true)
        }
    }

    @Test(arguments: packedOnly)
    func packedRegistration(_ tamper: Case) throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        tamper.edit(&ceremony)
        let response = try authenticator.register(ceremony, attestation: .packedSelf)
        Self.expect(tamper.expected) {
            _ = try PasskeyFixtures.rp.verifyRegistration(
                response, challenge: Array(repeating: 42, count: 32), userHandle: PasskeyFixtures.userHandle)
        }
    }

    @Test(arguments: shared + signatures)
    func assertion(_ tamper: Case) throws {
        var (authenticator, record) = try AssertionTests.registered()
        var ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        tamper.edit(&ceremony)
        let response = try authenticator.assert(ceremony)
        Self.expect(tamper.expected) {
            _ = try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: Array(repeating: 42, count: 32), credential: record,
                allowCredentials: [record.id, [1, 2, 3]], requireUserVerification: true)
        }
    }

    @Test func assertionCarryingAttestedData() throws {
        var (authenticator, record) = try AssertionTests.registered()
        var ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        let attested = authenticator.authenticatorData(ceremony, attested: true)
        ceremony.editAuthenticatorData = { $0 = attested }
        let response = try authenticator.assert(ceremony)
        Self.expect("invalid_flags") {
            _ = try PasskeyFixtures.rp.verifyAssertion(
                response, challenge: ceremony.challenge, credential: record, allowCredentials: [record.id])
        }
    }

    @Test func crossOriginPolicy() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        ceremony.crossOrigin = true
        ceremony.topOrigin = "https://shop.example"
        let response = try authenticator.register(ceremony)
        var rp = PasskeyFixtures.rp
        rp.allowsCrossOrigin = true
        #expect(
            try rp.verifyRegistration(response, challenge: ceremony.challenge, userHandle: PasskeyFixtures.userHandle)
                .credential.id
                == authenticator.credentialID)
        rp.allowedTopOrigins = ["https://partner.example"]
        Self.expect("top_origin_not_allowed") {
            _ = try rp.verifyRegistration(
                response, challenge: ceremony.challenge, userHandle: PasskeyFixtures.userHandle)
        }
        rp.allowedTopOrigins = ["https://shop.example"]
        #expect(
            try rp.verifyRegistration(response, challenge: ceremony.challenge, userHandle: PasskeyFixtures.userHandle)
                .credential.algorithm == .es256)

        // With an allowlist, a cross-origin response that does not say where it is embedded is refused (it could be
        // any page); without one it passes, as the relying party allowed any top origin.
        var anywhere = Ceremony(challenge: Array(repeating: 42, count: 32))
        anywhere.crossOrigin = true
        let unnamed = try authenticator.register(anywhere)
        Self.expect("top_origin_not_allowed") {
            _ = try rp.verifyRegistration(
                unnamed, challenge: anywhere.challenge, userHandle: PasskeyFixtures.userHandle)
        }
        rp.allowedTopOrigins = []
        #expect(
            try rp.verifyRegistration(unnamed, challenge: anywhere.challenge, userHandle: PasskeyFixtures.userHandle)
                .credential.algorithm == .es256)
    }

    @Test func algorithmsNotOfferedAreRefused() throws {
        let authenticator = try SoftwareAuthenticator(.rs256)
        let ceremony = Ceremony(challenge: Array(repeating: 42, count: 32))
        var rp = PasskeyFixtures.rp
        rp.algorithms = [.es256, .edDSA]
        Self.expect("algorithm_not_allowed") {
            _ = try rp.verifyRegistration(
                try authenticator.register(ceremony), challenge: ceremony.challenge,
                userHandle: PasskeyFixtures.userHandle)
        }
    }
}
