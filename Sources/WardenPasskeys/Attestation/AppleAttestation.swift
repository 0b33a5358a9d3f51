import Foundation
import WardenCore
import WardenCrypto

/// The `apple` anonymous attestation statement format (WebAuthn Level 3 §8.8).
extension AttestationVerifier {
    static func apple(
        _ statement: CBORValue, _ credential: AuthenticatorData.AttestedCredential, signed: [UInt8],
        policy: AttestationPolicy, date: Date
    ) throws(PasskeyError) -> AttestationType {
        try onlyKeys(statement, ["x5c"], format: "apple")
        guard let x5c = statement["x5c"] else { throw PasskeyError(.invalidAttestation, "apple: no x5c") }
        let chain = try certificates(x5c, format: "apple")
        let leaf = chain[0]
        let nonce = HashFunction.sha256.hash(signed)
        guard let `extension` = leaf.extension(appleNonceExtension) else {
            throw PasskeyError(.invalidAttestation, "apple: credential certificate has no nonce extension")
        }
        // SEQUENCE { [1] EXPLICIT OCTET STRING (32) }
        let expected: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce
        guard ConstantTime.equals(`extension`.value, expected) else {
            throw PasskeyError(.invalidAttestation, "apple: nonce does not match the registration")
        }
        guard leaf.subjectPublicKeyInfo == credential.publicKey.publicKey.spkiDER else {
            throw PasskeyError(.invalidAttestation, "apple: certificate key differs from the credential key")
        }
        return try trust(chain, format: .apple, policy: policy, date: date)
    }
}
