import Foundation
import WardenCore
import WardenJOSE

/// What the relying party stores for a registered credential (WebAuthn §4 "credential record"), and reads back
/// for each sign-in. Its JSON form is what `warden passkey verify-registration` prints and `--credential` reads:
///
/// ```json
/// {"id":"…","publicKey":"…","algorithm":-7,"signCount":0,"transports":["internal","hybrid"],
///  "backupEligible":true,"backedUp":true,"uvInitialized":true,"aaguid":"fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
///  "userHandle":"…","attestation":{"format":"none","type":"none"}}
/// ```
///
/// The record holds no secret: the public key, counters and flags only.
public struct CredentialRecord: Sendable, Equatable, JSONDocument {
    /// The credential ID.
    public var id: [UInt8]
    /// The credential public key as COSE_Key bytes.
    public var publicKey: [UInt8]
    /// The key's COSE algorithm.
    public var algorithm: COSEAlgorithm
    /// The last signature counter seen.
    public var signCount: UInt32
    /// Transport hints the client reported at registration (`internal`, `hybrid`, `usb`...); may be empty.
    public var transports: [String]
    /// BE at registration; it never changes for a credential.
    public var backupEligible: Bool
    /// BS at the last ceremony.
    public var backedUp: Bool
    /// Whether the user was verified at registration.
    public var uvInitialized: Bool
    /// The authenticator model (16 bytes).
    public var aaguid: [UInt8]
    /// The user handle (`user.id` of the creation options) the credential belongs to: the account every sign-in
    /// with it names.
    public var userHandle: [UInt8]
    /// The attestation statement format of the registration.
    public var attestationFormat: AttestationFormat
    /// What the registration's attestation showed about the authenticator.
    public var attestationType: AttestationType

    /// A record from its parts (normally made by ``RelyingParty/verifyRegistration(_:challenge:userHandle:requireUserVerification:now:)``).
    public init(
        id: [UInt8], publicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32, transports: [String] = [],
        backupEligible: Bool = false, backedUp: Bool = false, uvInitialized: Bool = false,
        aaguid: [UInt8] = Array(repeating: 0, count: 16), userHandle: [UInt8],
        attestationFormat: AttestationFormat = .none, attestationType: AttestationType = .none
    ) {
        self.id = id
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.transports = transports
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.uvInitialized = uvInitialized
        self.aaguid = aaguid
        self.userHandle = userHandle
        self.attestationFormat = attestationFormat
        self.attestationType = attestationType
    }

    /// The AAGUID in UUID text form.
    public var aaguidString: String {
        guard aaguid.count == 16 else { return aaguid.map { String(format: "%02x", $0) }.joined() }
        return UUID(uuid: aaguid.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).uuidString.lowercased()
    }

    /// The record after a verified sign-in: the new counter and backup state.
    public func updated(by assertion: AssertionResult) -> CredentialRecord {
        var copy = self
        copy.signCount = assertion.newSignCount
        copy.backedUp = assertion.backedUp
        // WebAuthn L3 §7.2 step 25: the first user-verified assertion initialises UV for the credential.
        copy.uvInitialized = uvInitialized || assertion.userVerified
        return copy
    }

    /// The JSON document (sorted keys).
    public func json() -> String {
        var object: [String: Any] = [
            "id": Base64URL.encode(id), "publicKey": Base64URL.encode(publicKey), "algorithm": algorithm.rawValue,
            "signCount": signCount, "transports": transports, "backupEligible": backupEligible, "backedUp": backedUp,
            "uvInitialized": uvInitialized, "aaguid": aaguidString,
            "attestation": ["format": attestationFormat.rawValue, "type": attestationType.rawValue],
        ]
        object["userHandle"] = Base64URL.encode(userHandle)
        return PasskeyJSON.encode(object)
    }

    /// Reads the JSON document; the public key must decode as a supported COSE key of the stated algorithm.
    public init(json: [UInt8]) throws(PasskeyError) {
        let object: JSONObject
        do {
            object = try JSONReader(maximumBytes: 64 * 1024, maximumDepth: 4).parseObject(json)
        } catch {
            throw PasskeyError(.malformed, "credential record: \(error.reason)")
        }
        let id = try ResponseDocument.bytes(object["id"], "id")
        let publicKey = try ResponseDocument.bytes(object["publicKey"], "publicKey")
        let key = try COSEKey(bytes: publicKey)
        if let alg = object["algorithm"]?.numberValue?.int64, alg != key.algorithm.rawValue {
            throw PasskeyError(.invalidKey, "credential record algorithm differs from its key")
        }
        guard let count = object["signCount"]?.numberValue?.int64, (0...Int64(UInt32.max)).contains(count) else {
            throw PasskeyError(.malformed, "credential record signCount missing or out of range")
        }
        func flag(_ name: String) throws(PasskeyError) -> Bool {
            switch object[name] {
            case nil: return false
            case .bool(let value)?: return value
            default: throw PasskeyError(.malformed, "credential record \(name) is not a boolean")
            }
        }
        var aaguid = [UInt8](repeating: 0, count: 16)
        if let text = object["aaguid"]?.stringValue {
            guard let uuid = UUID(uuidString: text) else {
                throw PasskeyError(.malformed, "credential record aaguid is not a UUID")
            }
            aaguid = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        }
        // The account the credential belongs to: a record without it could sign in as anyone.
        let userHandle = try ResponseDocument.bytes(object["userHandle"], "userHandle")
        guard (1...PasskeyCreationOptions.maximumUserIDBytes).contains(userHandle.count) else {
            throw PasskeyError(.malformed, "credential record userHandle is not 1 to 64 bytes")
        }
        let attestation = object["attestation"]?.objectValue
        self.init(
            id: id, publicKey: publicKey, algorithm: key.algorithm, signCount: UInt32(count),
            transports: try ResponseDocument.strings(object["transports"], "transports"),
            backupEligible: try flag("backupEligible"), backedUp: try flag("backedUp"),
            uvInitialized: try flag("uvInitialized"), aaguid: aaguid, userHandle: userHandle,
            attestationFormat: AttestationFormat(rawValue: attestation?["format"]?.stringValue ?? "none"),
            attestationType: AttestationType(rawValue: attestation?["type"]?.stringValue ?? "none") ?? .none)
    }
}
