import Foundation
import WardenCore
import WardenCrypto

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

    // The checks every format shares.

    static func trust(
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

    static func certificates(_ value: CBORValue, format: String) throws(PasskeyError) -> [X509Certificate] {
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

    static func onlyKeys(_ statement: CBORValue, _ allowed: Set<String>, format: String) throws(PasskeyError) {
        guard case .map(let entries) = statement else { return }
        for entry in entries {
            guard case .text(let key) = entry.key, allowed.contains(key) else {
                throw PasskeyError(.invalidAttestation, "\(format): unexpected attStmt member")
            }
        }
    }
}
