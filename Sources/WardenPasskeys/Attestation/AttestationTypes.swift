import Foundation
import WardenCore
import WardenCrypto

/// An attestation statement format (WebAuthn §8).
public struct AttestationFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The `none` format: no attestation statement.
    public static let none = AttestationFormat(rawValue: "none")
    /// The `packed` format (WebAuthn §8.2).
    public static let packed = AttestationFormat(rawValue: "packed")
    /// The `apple` anonymous attestation format (WebAuthn §8.8).
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
