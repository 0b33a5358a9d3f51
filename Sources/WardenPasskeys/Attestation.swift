import Foundation
import WardenCore
import WardenCrypto

/// An attestation statement format (WebAuthn §8).
public struct AttestationFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = AttestationFormat(rawValue: "none")
    public static let packed = AttestationFormat(rawValue: "packed")
    public static let apple = AttestationFormat(rawValue: "apple")
    public var description: String { rawValue }
}

/// What the attestation showed about the authenticator.
public enum AttestationType: String, Sendable, Hashable {
    /// No attestation (`none`, or an unknown format the caller accepts as `none`).
    case none
    /// Signed by the credential key itself (`packed` without `x5c`): proves nothing about the model.
    case selfAttestation = "self"
    /// A certificate chain that verified against a configured root.
    case trusted
    /// A certificate chain was present and its signature verified, but no root was configured for the format, so
    /// the chain was not checked.
    case unverified
}

/// How registrations' attestation statements are judged.
///
/// The default suits consumer passkeys: any format is verified as far as it goes, `apple` chains are checked
/// against Apple's WebAuthn root, and the registration is accepted without proof of the model. Enterprise
/// deployments that allow only certain authenticators set ``requireTrustedAttestation`` and configure roots.
///
/// ```swift
/// var policy = AttestationPolicy()
/// policy.trustAnchors[.packed] = try X509Certificate.certificates(pemOrDER: Array(yubicoRootPEM.utf8))
/// policy.requireTrustedAttestation = true
/// ```
public struct AttestationPolicy: Sendable {
    /// Roots per format; a format without roots yields ``AttestationType/unverified`` for certificate chains.
    public var trustAnchors: [AttestationFormat: [X509Certificate]]
    /// When `true`, only ``AttestationType/trusted`` registrations are accepted.
    public var requireTrustedAttestation: Bool
    /// When `true`, formats Warden does not verify (`tpm`, `android-key`, `fido-u2f`...) are treated as `none`
    /// instead of rejected. Never combine with ``requireTrustedAttestation``.
    public var acceptsUnknownFormatsAsNone: Bool
    /// The time at which certificate validity is judged (`nil`: the ceremony's `now`).
    public var certificateValidationDate: Date?

    /// The default trusts Apple's WebAuthn root for `apple` and requires no trusted attestation.
    public init(
        trustAnchors: [AttestationFormat: [X509Certificate]] = [.apple: AttestationPolicy.appleWebAuthnRoots],
        requireTrustedAttestation: Bool = false, acceptsUnknownFormatsAsNone: Bool = false,
        certificateValidationDate: Date? = nil
    ) {
        self.trustAnchors = trustAnchors
        self.requireTrustedAttestation = requireTrustedAttestation
        self.acceptsUnknownFormatsAsNone = acceptsUnknownFormatsAsNone
        self.certificateValidationDate = certificateValidationDate
    }

    /// Apple WebAuthn Root CA (valid 2020-03-18 to 2045-03-15), the anchor of every `apple` attestation.
    public static let appleWebAuthnRoots: [X509Certificate] = {
        let pem = """
            -----BEGIN CERTIFICATE-----
            MIICEjCCAZmgAwIBAgIQaB0BbHo84wIlpQGUKEdXcTAKBggqhkjOPQQDAzBLMR8w
            HQYDVQQDDBZBcHBsZSBXZWJBdXRobiBSb290IENBMRMwEQYDVQQKDApBcHBsZSBJ
            bmMuMRMwEQYDVQQIDApDYWxpZm9ybmlhMB4XDTIwMDMxODE4MjEzMloXDTQ1MDMx
            NTAwMDAwMFowSzEfMB0GA1UEAwwWQXBwbGUgV2ViQXV0aG4gUm9vdCBDQTETMBEG
            A1UECgwKQXBwbGUgSW5jLjETMBEGA1UECAwKQ2FsaWZvcm5pYTB2MBAGByqGSM49
            AgEGBSuBBAAiA2IABCJCQ2pTVhzjl4Wo6IhHtMSAzO2cv+H9DQKev3//fG59G11k
            xu9eI0/7o6V5uShBpe1u6l6mS19S1FEh6yGljnZAJ+2GNP1mi/YK2kSXIuTHjxA/
            pcoRf7XkOtO4o1qlcaNCMEAwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHQ4EFgQUJtdk
            2cV4wlpn0afeaxLQG2PxxtcwDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2cA
            MGQCMFrZ+9DsJ1PW9hfNdBywZDsWDbWFp28it1d/5w2RPkRX3Bbn/UbDTNLx7Jr3
            jAGGiQIwHFj+dJZYUJR786osByBelJYsVZd2GbHQu209b5RCmGQ21gpSAk9QZW4B
            1bWeT0vT
            -----END CERTIFICATE-----
            """
        // A constant that parses in the tests; failure here is a build defect, not input.
        return (try? X509Certificate.certificates(pemOrDER: Array(pem.utf8))) ?? []
    }()
}

/// Verifies attestation statements (`none`, `packed`, `apple`).
enum AttestationVerifier {
    static let aaguidExtension = "1.3.6.1.4.1.45724.1.1.4"
    static let appleNonceExtension = "1.2.840.113635.100.8.2"

    static func verify(
        format: String, statement: CBORValue, authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        policy: AttestationPolicy, now: Date
    ) throws(PasskeyError) -> (AttestationFormat, AttestationType) {
        guard case .map(let entries) = statement else {
            throw PasskeyError(.invalidAttestation, "attStmt is not a map")
        }
        guard let credential = authenticatorData.attestedCredential else {
            throw PasskeyError(.invalidFlags, "registration without attested credential data")
        }
        let signed = authenticatorData.bytes + clientDataHash
        let date = policy.certificateValidationDate ?? now
        let result: (AttestationFormat, AttestationType)
        switch AttestationFormat(rawValue: format) {
        case .none:
            guard entries.isEmpty else { throw PasskeyError(.invalidAttestation, "none attestation with a statement") }
            result = (.none, .none)
        case .packed:
            result = (.packed, try packed(statement, credential, signed: signed, policy: policy, date: date))
        case .apple:
            result = (.apple, try apple(statement, credential, signed: signed, policy: policy, date: date))
        default:
            guard policy.acceptsUnknownFormatsAsNone, !policy.requireTrustedAttestation else {
                throw PasskeyError(
                    .unsupportedAttestation, "attestation format \"\(format.prefix(32))\" is not supported")
            }
            result = (AttestationFormat(rawValue: String(format.prefix(32))), .none)
        }
        if policy.requireTrustedAttestation, result.1 != .trusted {
            throw PasskeyError(.untrustedAttestation, "a trusted attestation is required; got \(result.1.rawValue)")
        }
        return result
    }

    // MARK: packed (§8.2)

    private static func packed(
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
                "packed: attestation certificate key: \((error as? any WardenError)?.summary ?? "\(error)")")
        }
        guard try COSEKey.verify(signature, signed, key: leafKey, algorithm: algorithm) else {
            throw PasskeyError(.invalidSignature, "packed attestation signature does not verify")
        }
        try checkPackedCertificate(leaf, aaguid: credential.aaguid)
        return try trust(chain, format: .packed, policy: policy, date: date)
    }

    /// The attestation certificate requirements of §8.2.1.
    private static func checkPackedCertificate(_ leaf: X509Certificate, aaguid: [UInt8]) throws(PasskeyError) {
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

    // MARK: apple (§8.8)

    private static func apple(
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

    // MARK: Shared

    private static func trust(
        _ chain: [X509Certificate], format: AttestationFormat, policy: AttestationPolicy, date: Date
    ) throws(PasskeyError) -> AttestationType {
        guard let roots = policy.trustAnchors[format], !roots.isEmpty else { return .unverified }
        do {
            try X509Certificate.verifyChain(chain, roots: roots, at: date)
        } catch {
            throw PasskeyError(.untrustedAttestation, "\(format): \(error.reason)")
        }
        return .trusted
    }

    private static func certificates(_ value: CBORValue, format: String) throws(PasskeyError) -> [X509Certificate] {
        guard case .array(let items) = value, !items.isEmpty, items.count <= 8 else {
            throw PasskeyError(.invalidAttestation, "\(format): x5c must hold 1 to 8 certificates")
        }
        var chain: [X509Certificate] = []
        for item in items {
            guard case .bytes(let der) = item else {
                throw PasskeyError(.invalidAttestation, "\(format): x5c entries are byte strings")
            }
            do {
                chain.append(try X509Certificate(der: der))
            } catch {
                throw PasskeyError(.invalidAttestation, "\(format): \(error.reason)")
            }
        }
        return chain
    }

    private static func onlyKeys(_ statement: CBORValue, _ allowed: Set<String>, format: String) throws(PasskeyError) {
        guard case .map(let entries) = statement else { return }
        for entry in entries {
            guard case .text(let key) = entry.key, allowed.contains(key) else {
                throw PasskeyError(.invalidAttestation, "\(format): unexpected attStmt member")
            }
        }
    }
}
