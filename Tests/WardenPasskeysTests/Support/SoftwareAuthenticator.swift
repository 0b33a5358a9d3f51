import Foundation
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

/// A software WebAuthn authenticator and client: makes registrations and assertions with WardenCrypto keys, and
/// lets a test change any field (before signing, so that each check is reached on its own).
struct SoftwareAuthenticator {
    enum Signer {
        case ec(ECPrivateKey)
        case ed25519(Ed25519PrivateKey)
        case rsa(RSAPrivateKey, pss: Bool)
    }

    enum Attestation {
        case none
        case packedSelf
        /// `x5c` = [leaf] + intermediates; the leaf key signs.
        case packedX5C(leafKey: ECPrivateKey, chain: [[UInt8]])
        /// An `apple` statement: a credential certificate for the credential key with the nonce extension, issued by
        /// `caKey` (named by `ca`), followed by `intermediates`.
        case apple(caKey: ECPrivateKey, ca: CertificateBuilder, intermediates: [[UInt8]])
        case custom(format: String, statement: CBORValue)
    }

    /// Everything a ceremony can vary.
    struct Ceremony {
        var rpID = "example.com"
        var origin = "https://example.com"
        var type: String?
        var challenge: [UInt8]
        var crossOrigin: Bool? = false
        var topOrigin: String?
        /// Replaces the whole clientDataJSON.
        var clientDataJSON: [UInt8]?
        var flags: UInt8?
        var rpIDHash: [UInt8]?
        var signCount: UInt32?
        /// Changes authenticator data before signing.
        var editAuthenticatorData: ((inout [UInt8]) -> Void)?
        /// Changes the attestation statement before encoding (after signing).
        var editStatement: ((inout [CBORMapEntry]) -> Void)?
        /// Changes the signature after signing.
        var editSignature: ((inout [UInt8]) -> Void)?
        /// The `rawId`/`id` the client reports (default: the credential ID).
        var reportedCredentialID: [UInt8]?
        var userHandle: [UInt8]?

        init(challenge: [UInt8]) { self.challenge = challenge }
    }

    let signer: Signer
    let algorithm: COSEAlgorithm
    var credentialID: [UInt8]
    var aaguid: [UInt8] = Array(0xA0..<0xB0)
    var signCount: UInt32 = 0
    /// UP | UV | BE | BS.
    var flags: UInt8 = 0x1D

    init(_ algorithm: COSEAlgorithm = .es256) throws {
        self.algorithm = algorithm
        switch algorithm {
        case .es256: signer = .ec(try ECPrivateKey(curve: .p256))
        case .es384: signer = .ec(try ECPrivateKey(curve: .p384))
        case .es512: signer = .ec(try ECPrivateKey(curve: .p521))
        case .edDSA, .ed25519: signer = .ed25519(try Ed25519PrivateKey())
        case .rs256: signer = .rsa(try Self.rsaKey(), pss: false)
        case .ps256: signer = .rsa(try Self.rsaKey(), pss: true)
        default: fatalError("unsupported test algorithm")
        }
        credentialID = try SecureRandom().bytes(count: 32)
    }

    /// RSA key generation is slow; the RSA tests share one key.
    private static let sharedRSA = Result { try RSAPrivateKey(generatingBits: 2048) }
    private static func rsaKey() throws -> RSAPrivateKey { try sharedRSA.get() }

    var publicKey: PublicKey {
        switch signer {
        case .ec(let key): key.publicKey
        case .ed25519(let key): key.publicKey
        case .rsa(let key, _): key.publicKey
        }
    }

    /// The COSE_Key of the credential.
    var coseKey: [UInt8] { try! COSEKey(publicKey: publicKey, algorithm: algorithm).encoded }

    /// A WebAuthn signature (DER for ECDSA).
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch signer {
        case .ec(let key): CertificateBuilder.derSignature(try key.signature(for: message))
        case .ed25519(let key): try key.signature(for: message)
        case .rsa(let key, let pss):
            pss ? try key.pssSignature(for: message, hash: .sha256) : try key.signature(for: message, hash: .sha256)
        }
    }

    func clientData(_ ceremony: Ceremony, defaultType: String) -> [UInt8] {
        if let raw = ceremony.clientDataJSON { return raw }
        var json =
            #"{"type":"\#(ceremony.type ?? defaultType)","challenge":"\#(Base64URL.encode(ceremony.challenge))","origin":"\#(ceremony.origin)""#
        if let crossOrigin = ceremony.crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        if let top = ceremony.topOrigin { json += #","topOrigin":"\#(top)""# }
        return Array((json + "}").utf8)
    }

    func authenticatorData(_ ceremony: Ceremony, attested: Bool) -> [UInt8] {
        var flags = ceremony.flags ?? self.flags
        if attested { flags |= 0x40 }
        let count = ceremony.signCount ?? signCount
        var data = (ceremony.rpIDHash ?? HashFunction.sha256.hash(Array(ceremony.rpID.utf8))) + [flags]
        data += (0..<4).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * UInt32($0))) }
        if attested {
            data +=
                aaguid + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
        }
        ceremony.editAuthenticatorData?(&data)
        return data
    }

    func register(_ ceremony: Ceremony, attestation: Attestation = .none) throws -> RegistrationResponse {
        let clientDataJSON = clientData(ceremony, defaultType: "webauthn.create")
        let authData = authenticatorData(ceremony, attested: true)
        let signed = authData + HashFunction.sha256.hash(clientDataJSON)
        var format = "none"
        var statement: [CBORMapEntry] = []
        var nonMapStatement: CBORValue?
        func entry(_ key: String, _ value: CBORValue) -> CBORMapEntry { CBORMapEntry(key: .text(key), value: value) }
        switch attestation {
        case .none: break
        case .packedSelf:
            format = "packed"
            var signature = try sign(signed)
            ceremony.editSignature?(&signature)
            statement = [entry("alg", CBOREncoder.int(algorithm.rawValue)), entry("sig", .bytes(signature))]
        case .packedX5C(let leafKey, let chain):
            format = "packed"
            var signature = CertificateBuilder.derSignature(try leafKey.signature(for: signed))
            ceremony.editSignature?(&signature)
            statement = [
                entry("alg", .negative(-7)), entry("sig", .bytes(signature)),
                entry("x5c", .array(chain.map { .bytes($0) })),
            ]
        case .apple(let caKey, let ca, let intermediates):
            format = "apple"
            var leaf = CertificateBuilder()
            leaf.subject = [("2.5.4.3", "credential"), ("2.5.4.10", "Apple Inc.")]
            let nonce = HashFunction.sha256.hash(signed)
            leaf.extensions = [("1.2.840.113635.100.8.2", false, [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce)]
            let certificate = try leaf.build(subjectKey: publicKey, issuer: ca, issuerKey: caKey)
            statement = [entry("x5c", .array(([certificate] + intermediates).map { .bytes($0) }))]
        case .custom(let customFormat, let customStatement):
            format = customFormat
            if case .map(let entries) = customStatement {
                statement = entries
            } else {
                nonMapStatement = customStatement
            }
        }
        ceremony.editStatement?(&statement)
        let object = CBOREncoder.encode(
            .map([
                entry("fmt", .text(format)), entry("attStmt", nonMapStatement ?? .map(statement)),
                entry("authData", .bytes(authData)),
            ]))
        return RegistrationResponse(
            credentialID: ceremony.reportedCredentialID ?? credentialID, clientDataJSON: clientDataJSON,
            attestationObject: object, transports: ["internal", "hybrid"])
    }

    mutating func assert(_ ceremony: Ceremony) throws -> AssertionResponse {
        signCount += 1
        let clientDataJSON = clientData(ceremony, defaultType: "webauthn.get")
        let authData = authenticatorData(ceremony, attested: false)
        var signature = try sign(authData + HashFunction.sha256.hash(clientDataJSON))
        ceremony.editSignature?(&signature)
        return AssertionResponse(
            credentialID: ceremony.reportedCredentialID ?? credentialID, clientDataJSON: clientDataJSON,
            authenticatorData: authData, signature: signature, userHandle: ceremony.userHandle)
    }
}
