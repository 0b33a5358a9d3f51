import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

/// Writes responses made by the software authenticator — valid ones for every algorithm and format, and every
/// tampering case — with Warden's verdict, for `Tests/Interop/passkey_crosscheck.py` to run through py_webauthn
/// and `warden passkey`. Runs only when `WARDEN_PASSKEY_CORPUS` names the output file (scripts/interop sets it).
@Suite("Passkey cross-check corpus")
struct CorpusExport {
    typealias Ceremony = SoftwareAuthenticator.Ceremony
    static let output = ProcessInfo.processInfo.environment["WARDEN_PASSKEY_CORPUS"]

    /// Cases where Warden is deliberately stricter than py_webauthn 2.5 (py_webauthn accepts them).
    static let stricter: [String: String] = [
        "cross-origin iframe": "py_webauthn does not check crossOrigin",
        "topOrigin without crossOrigin": "py_webauthn does not check topOrigin",
        "rawId of another credential":
            "py_webauthn does not compare rawId with the authenticator data's credential ID or the stored credential",
        "credential ID over 1023 bytes": "py_webauthn does not bound the credential ID length",
        "packed ecdaaKeyId": "py_webauthn ignores unknown attStmt members (ECDAA left WebAuthn in Level 2)",
        "packed x5c empty": "py_webauthn takes an empty x5c for self attestation; §8.2 requires a non-empty array",
        "packed certificate: isCA": "py_webauthn does not check the §8.2.1 certificate requirements",
        "packed certificate: wrongOU": "py_webauthn does not check the §8.2.1 certificate requirements",
        "packed certificate: otherAAGUID": "py_webauthn does not check the §8.2.1 certificate requirements",
        "backup eligibility changed": "py_webauthn has no stored BE to compare",
    ]

    struct Entry {
        var fields: [String: Any]
    }

    static func pem(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }

    static func verdict(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let error as PasskeyError {
            return error.codeName
        } catch {
            return "error: \(error)"
        }
    }

    @Test(.enabled(if: output != nil)) func export() throws {
        let rp = try RelyingParty(id: "example.com", origins: ["https://example.com"])
        var cases: [[String: Any]] = []
        func registration(
            _ name: String, _ authenticator: SoftwareAuthenticator, _ ceremony: Ceremony,
            _ attestation: SoftwareAuthenticator.Attestation = .none, roots: [UInt8]? = nil, format: String? = nil
        ) throws {
            let response = try authenticator.register(ceremony, attestation: attestation)
            var party = rp
            if let roots, let format {
                party.attestation.trustAnchors[AttestationFormat(rawValue: format)] = [try X509Certificate(der: roots)]
            }
            var entry: [String: Any] = [
                "name": name, "ceremony": "registration",
                "challenge": Base64URL.encode([UInt8](repeating: 42, count: 32)),
                "response": response.json(),
                "expected": Self.verdict {
                    _ = try party.verifyRegistration(
                        response, challenge: [UInt8](repeating: 42, count: 32), userHandle: PasskeyFixtures.userHandle,
                        requireUserVerification: true)
                },
            ]
            if let roots, let format { entry["roots"] = [format: Self.pem(roots)] }
            if let reason = Self.stricter[name] { entry["stricter"] = reason }
            cases.append(entry)
        }
        func assertion(
            _ name: String, _ authenticator: inout SoftwareAuthenticator, record: CredentialRecord, _ ceremony: Ceremony
        ) throws {
            let response = try authenticator.assert(ceremony)
            var entry: [String: Any] = [
                "name": name, "ceremony": "assertion", "challenge": Base64URL.encode([UInt8](repeating: 42, count: 32)),
                "response": response.json(), "record": record.json(),
                "publicKey": Base64URL.encode(record.publicKey), "signCount": record.signCount,
            ]
            var newCount: UInt32 = 0
            entry["expected"] = Self.verdict {
                newCount = try rp.verifyAssertion(
                    response, challenge: [UInt8](repeating: 42, count: 32), credential: record,
                    allowCredentials: [record.id], requireUserVerification: true
                ).newSignCount
            }
            if entry["expected"] as? String == "ok" { entry["newSignCount"] = newCount }
            if let reason = Self.stricter[name] { entry["stricter"] = reason }
            cases.append(entry)
        }
        let base = Ceremony(challenge: [UInt8](repeating: 42, count: 32))

        // Valid ceremonies for every algorithm py_webauthn 2.5 knows (it has neither -35 ES384 nor -19 Ed25519).
        for algorithm in [COSEAlgorithm.es256, .es512, .edDSA, .rs256, .ps256] {
            var authenticator = try SoftwareAuthenticator(algorithm)
            try registration("none \(algorithm)", authenticator, base)
            try registration("packed self \(algorithm)", authenticator, base, .packedSelf)
            let record = try rp.verifyRegistration(
                try authenticator.register(base), challenge: base.challenge, userHandle: PasskeyFixtures.userHandle
            )
            .credential
            try assertion("assertion \(algorithm)", &authenticator, record: record, base)
            try assertion(
                "second assertion \(algorithm)", &authenticator,
                record: record.updated(
                    by: AssertionResult(
                        credentialID: record.id, userHandle: record.userHandle, newSignCount: 1, userVerified: true,
                        backedUp: true,
                        signCountRegressed: false,
                        extensions: nil)), base)
        }
        // Attestation chains.
        let pki = try PasskeyFixtures.PKI()
        let authenticator = try SoftwareAuthenticator(.es256)
        let (leafKey, leaf) = try pki.leaf {
            $0.extensions = [CertificateBuilder.aaguidExtension(authenticator.aaguid)]
        }
        let chain = SoftwareAuthenticator.Attestation.packedX5C(leafKey: leafKey, chain: [leaf, pki.intermediateDER])
        try registration("packed x5c trusted", authenticator, base, chain, roots: pki.rootDER, format: "packed")
        try registration(
            "packed x5c other root", authenticator, base, chain, roots: try PasskeyFixtures.PKI(name: "Other").rootDER,
            format: "packed")
        for violation in ["isCA", "wrongOU", "otherAAGUID"] {
            let (key, certificate) = try pki.leaf { builder in
                switch violation {
                case "isCA": builder.isCA = true
                case "wrongOU": builder.subject[2] = ("2.5.4.11", "Authenticator")
                default: builder.extensions = [CertificateBuilder.aaguidExtension(Array(repeating: 7, count: 16))]
                }
            }
            try registration(
                "packed certificate: \(violation)", authenticator, base,
                .packedX5C(leafKey: key, chain: [certificate, pki.intermediateDER]))
        }
        try registration(
            "apple trusted", authenticator, base,
            .apple(caKey: pki.intermediateKey, ca: pki.intermediate, intermediates: [pki.intermediateDER]),
            roots: pki.rootDER, format: "apple")
        try registration("unknown format", authenticator, base, .custom(format: "tpm", statement: .map([])))

        // Every tampering case.
        for tamper in TamperingTests.shared + TamperingTests.registrationOnly {
            var ceremony = base
            tamper.edit(&ceremony)
            try registration(tamper.name, try SoftwareAuthenticator(.es256), ceremony)
        }
        for tamper in TamperingTests.packedOnly {
            var ceremony = base
            tamper.edit(&ceremony)
            try registration(tamper.name, try SoftwareAuthenticator(.es256), ceremony, .packedSelf)
        }
        for tamper in TamperingTests.shared + TamperingTests.signatures {
            var (signer, record) = try AssertionTests.registered()
            var ceremony = base
            tamper.edit(&ceremony)
            try assertion(tamper.name, &signer, record: record, ceremony)
        }
        var (signer, record) = try AssertionTests.registered()
        record.signCount = 10
        var regressed = base
        regressed.signCount = 10
        try assertion("sign count not increasing", &signer, record: record, regressed)
        record.signCount = 0
        var noBackup = base
        noBackup.flags = 0x05
        try assertion("backup eligibility changed", &signer, record: record, noBackup)

        let data = try JSONSerialization.data(withJSONObject: ["cases": cases], options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: Self.output!))
    }
}
