import Foundation
import WardenCore
import WardenCrypto

/// The `packed` attestation statement format (WebAuthn Level 3 §8.2): self attestation or an x5c chain.
extension AttestationVerifier {
    static func packed(
        _ statement: CBORValue, _ credential: AuthenticatorData.AttestedCredential, signed: [UInt8],
        policy: AttestationPolicy, date: Date
    ) throws(PasskeyError) -> AttestationType {
        try onlyKeys(statement, ["alg", "sig", "x5c"], format: "packed")
        guard let alg = statement["alg"]?.integer else { throw PasskeyError(.invalidAttestation, "packed: no alg") }
        guard case .bytes(let signature)? = statement["sig"] else {
            throw PasskeyError(.invalidAttestation, "packed: no sig")
        }
        let algorithm = COSEAlgorithm(rawValue: alg)
        guard COSEAlgorithm.supported.contains(algorithm) else {
            throw PasskeyError(.unsupportedAlgorithm, "packed: attestation algorithm \(alg) is not supported")
        }
        guard let x5c = statement["x5c"] else {
            // Self attestation: the credential key signs, under its own algorithm.
            guard algorithm == credential.publicKey.algorithm else {
                throw PasskeyError(.invalidAttestation, "packed self attestation: alg differs from the credential key")
            }
            guard try credential.publicKey.isValidSignature(signature, for: signed) else {
                throw PasskeyError(.invalidSignature, "packed self attestation signature does not verify")
            }
            return .selfAttestation
        }
        let chain = try certificates(x5c, format: "packed")
        let leaf = chain[0]
        let leafKey: PublicKey
        do {
            leafKey = try leaf.publicKey
        } catch {
            throw PasskeyError(
                .invalidAttestation,
                "packed: attestation certificate key: \(error.summary)")
        }
        guard try COSEKey.verify(signature, signed, key: leafKey, algorithm: algorithm) else {
            throw PasskeyError(.invalidSignature, "packed attestation signature does not verify")
        }
        try checkPackedCertificate(leaf, aaguid: credential.aaguid)
        return try trust(chain, format: .packed, policy: policy, date: date)
    }

    /// The attestation certificate requirements of §8.2.1.
    static func checkPackedCertificate(_ leaf: X509Certificate, aaguid: [UInt8]) throws(PasskeyError) {
        guard leaf.version == 3 else { throw PasskeyError(.invalidAttestation, "packed: certificate is not X.509 v3") }
        guard let country = leaf.subject(.country), country.utf8.count == 2,
            country.utf8.allSatisfy({ (65...90).contains($0) })
        else { throw PasskeyError(.invalidAttestation, "packed: Subject-C is not an ISO 3166 code") }
        guard let organization = leaf.subject(.organization), !organization.isEmpty else {
            throw PasskeyError(.invalidAttestation, "packed: Subject-O missing")
        }
        guard leaf.subject(.organizationalUnit) == "Authenticator Attestation" else {
            throw PasskeyError(.invalidAttestation, "packed: Subject-OU is not \"Authenticator Attestation\"")
        }
        guard let commonName = leaf.subject(.commonName), !commonName.isEmpty else {
            throw PasskeyError(.invalidAttestation, "packed: Subject-CN missing")
        }
        let isCA: Bool?
        do {
            isCA = try leaf.basicConstraintsCA
        } catch {
            throw PasskeyError(
                .invalidAttestation, "packed: Basic Constraints: \(error.summary)")
        }
        guard isCA != true else { throw PasskeyError(.invalidAttestation, "packed: attestation certificate is a CA") }
        if let `extension` = leaf.extension(aaguidExtension) {
            guard !`extension`.isCritical else {
                throw PasskeyError(.invalidAttestation, "packed: the AAGUID extension must not be critical")
            }
            // extnValue holds an OCTET STRING of the 16 AAGUID bytes.
            guard `extension`.value.count == 18, `extension`.value[0] == 0x04, `extension`.value[1] == 16,
                Array(`extension`.value[2...]) == aaguid
            else {
                throw PasskeyError(.invalidAttestation, "packed: certificate AAGUID differs from the authenticator's")
            }
        }
    }
}
