import WardenCore
import WardenCrypto
import WardenJOSE

/// The collected client data (WebAuthn Level 3 §5.8.1), read with the strict JSON reader.
public struct CollectedClientData: Sendable, JSONDocument {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge bytes (decoded from base64url).
    public let challenge: [UInt8]
    /// The caller's origin, e.g. `https://example.com`.
    public let origin: String
    /// `true` when the ceremony ran in a cross-origin iframe.
    public let crossOrigin: Bool
    /// The top-level origin for cross-origin calls.
    public let topOrigin: String?
    /// The raw JSON (what the signature covers through its hash).
    public let bytes: [UInt8]

    /// The largest `clientDataJSON` accepted.
    public static let maximumBytes = 64 * 1024

    /// Parses `clientDataJSON`.
    public init(json bytes: [UInt8]) throws(PasskeyError) {
        guard bytes.count <= Self.maximumBytes else { throw PasskeyError(.tooLarge, "clientDataJSON over 64 KiB") }
        let object: JSONObject
        do {
            object = try JSONReader(maximumBytes: Self.maximumBytes, maximumDepth: 8).parseObject(bytes)
        } catch {
            throw PasskeyError(.malformed, "clientDataJSON: \(error.reason)")
        }
        guard let type = object["type"]?.stringValue else { throw PasskeyError(.malformed, "clientDataJSON.type") }
        guard let challenge = object["challenge"]?.stringValue else {
            throw PasskeyError(.malformed, "clientDataJSON.challenge missing")
        }
        guard let origin = object["origin"]?.stringValue else {
            throw PasskeyError(.malformed, "clientDataJSON.origin missing")
        }
        do {
            self.challenge = try Base64URL.decode(challenge)
        } catch {
            throw PasskeyError(.malformed, "clientDataJSON.challenge is not base64url")
        }
        switch object["crossOrigin"] {
        case nil, .null?: crossOrigin = false
        case .bool(let value)?: crossOrigin = value
        default: throw PasskeyError(.malformed, "clientDataJSON.crossOrigin is not a boolean")
        }
        switch object["topOrigin"] {
        case nil: topOrigin = nil
        case .string(let value)?: topOrigin = value
        default: throw PasskeyError(.malformed, "clientDataJSON.topOrigin is not a string")
        }
        self.type = type
        self.origin = origin
        self.bytes = bytes
    }

    /// SHA-256 of the raw JSON.
    public var hash: [UInt8] { HashFunction.sha256.hash(bytes) }
}
