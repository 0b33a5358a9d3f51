import Foundation
import WardenCore
import WardenJOSE

/// A registration response in the shape `PublicKeyCredential.toJSON()` produces (WebAuthn Level 3
/// `RegistrationResponseJSON`): base64url fields, `response.transports` (a top-level `transports`, as older
/// libraries send, is also read).
///
/// ```swift
/// let response = try RegistrationResponse(json: Array(requestBody))
/// ```
public struct RegistrationResponse: Sendable, JSONDocument {
    /// `rawId` (which must equal `id`).
    public let credentialID: [UInt8]
    /// The raw `response.clientDataJSON` bytes.
    public let clientDataJSON: [UInt8]
    /// The raw `response.attestationObject` bytes (CBOR).
    public let attestationObject: [UInt8]
    /// Transport hints (`internal`, `hybrid`, `usb`, `nfc`, `ble`...).
    public let transports: [String]
    /// `platform` or `cross-platform`, when the client reported it.
    public let authenticatorAttachment: String?

    /// The largest response document accepted.
    public static let maximumBytes = 256 * 1024

    /// The WebAuthn `authenticatorAttachment` for the raw value of Apple's `ASAuthorizationPublicKeyCredentialAttachment`
    /// (0 `platform`: this device; 1 `cross-platform`: another device, e.g. a phone over hybrid), nil when the system
    /// did not say (before iOS 16.6 / macOS 13.5) or said something unknown — never a guess.
    public static func authenticatorAttachment(appleRawValue: Int?) -> String? {
        switch appleRawValue {
        case 0: "platform"
        case 1: "cross-platform"
        default: nil
        }
    }

    /// A response from already-decoded parts (native iOS clients hand these over as `Data`).
    public init(
        credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String] = [],
        authenticatorAttachment: String? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// The `PublicKeyCredential.toJSON()` document (what ``init(json:)`` reads; software authenticators and tests
    /// send it).
    public func json() -> String {
        var response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientDataJSON),
            "attestationObject": Base64URL.encode(attestationObject),
        ]
        if !transports.isEmpty { response["transports"] = transports }
        var document = ResponseDocument.envelope(credentialID, response: response)
        if let authenticatorAttachment { document["authenticatorAttachment"] = authenticatorAttachment }
        return PasskeyJSON.encode(document)
    }

    /// Parses the JSON document.
    public init(json: [UInt8]) throws(PasskeyError) {
        let document = try ResponseDocument(json: json, maximumBytes: Self.maximumBytes)
        let response = document.response
        var transports = try ResponseDocument.strings(response["transports"], "response.transports")
        if transports.isEmpty { transports = try ResponseDocument.strings(document.root["transports"], "transports") }
        self.init(
            credentialID: document.credentialID,
            clientDataJSON: try ResponseDocument.bytes(response["clientDataJSON"], "response.clientDataJSON"),
            attestationObject: try ResponseDocument.bytes(response["attestationObject"], "response.attestationObject"),
            transports: transports, authenticatorAttachment: document.root["authenticatorAttachment"]?.stringValue)
    }
}

/// An authentication (assertion) response in the `AuthenticationResponseJSON` shape.
public struct AssertionResponse: Sendable, JSONDocument {
    /// `rawId` (which must equal `id`).
    public let credentialID: [UInt8]
    /// The raw `response.clientDataJSON` bytes.
    public let clientDataJSON: [UInt8]
    /// The raw `response.authenticatorData` bytes.
    public let authenticatorData: [UInt8]
    /// The assertion signature over the authenticator data and the SHA-256 of the client data.
    public let signature: [UInt8]
    /// The user handle a discoverable credential returns.
    public let userHandle: [UInt8]?

    /// A response from already-decoded parts (native iOS clients hand these over as `Data`).
    public init(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// A response from the fields AuthenticationServices hands over, which import as implicitly unwrapped `Data!`
    /// and may be nil: reading them into `Array` would trap. A missing credential ID, client data, authenticator data
    /// or signature is ``PasskeyErrorDomain/Code/malformed``; a missing or empty user handle is nil (WebAuthn lets
    /// authenticators — security keys in particular — omit it).
    public init(
        credentialID: Data?, clientDataJSON: Data?, authenticatorData: Data?, signature: Data?, userID: Data?
    ) throws(PasskeyError) {
        guard let credentialID, !credentialID.isEmpty else { throw PasskeyError(.malformed, "no credential ID") }
        guard let clientDataJSON, !clientDataJSON.isEmpty else { throw PasskeyError(.malformed, "no client data") }
        guard let authenticatorData, !authenticatorData.isEmpty else {
            throw PasskeyError(.malformed, "no authenticator data")
        }
        guard let signature, !signature.isEmpty else { throw PasskeyError(.malformed, "no signature") }
        self.init(
            credentialID: Array(credentialID), clientDataJSON: Array(clientDataJSON),
            authenticatorData: Array(authenticatorData), signature: Array(signature),
            userHandle: userID.flatMap { $0.isEmpty ? nil : Array($0) })
    }

    /// The `PublicKeyCredential.toJSON()` document (what ``init(json:)`` reads).
    public func json() -> String {
        var response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientDataJSON),
            "authenticatorData": Base64URL.encode(authenticatorData), "signature": Base64URL.encode(signature),
        ]
        if let userHandle { response["userHandle"] = Base64URL.encode(userHandle) }
        return PasskeyJSON.encode(ResponseDocument.envelope(credentialID, response: response))
    }

    /// Parses the JSON document.
    public init(json: [UInt8]) throws(PasskeyError) {
        let document = try ResponseDocument(json: json, maximumBytes: RegistrationResponse.maximumBytes)
        let response = document.response
        var userHandle: [UInt8]?
        switch response["userHandle"] {
        case nil, .null?: userHandle = nil
        case let value?: userHandle = try ResponseDocument.bytes(value, "response.userHandle")
        }
        if userHandle?.isEmpty == true { userHandle = nil }
        self.init(
            credentialID: document.credentialID,
            clientDataJSON: try ResponseDocument.bytes(response["clientDataJSON"], "response.clientDataJSON"),
            authenticatorData: try ResponseDocument.bytes(response["authenticatorData"], "response.authenticatorData"),
            signature: try ResponseDocument.bytes(response["signature"], "response.signature"), userHandle: userHandle)
    }
}

/// The parts both response documents share.
struct ResponseDocument {
    let root: JSONObject
    let response: JSONObject
    let credentialID: [UInt8]

    init(json: [UInt8], maximumBytes: Int) throws(PasskeyError) {
        guard json.count <= maximumBytes else { throw PasskeyError(.tooLarge, "response over \(maximumBytes) bytes") }
        do {
            root = try JSONReader(maximumBytes: maximumBytes, maximumDepth: 16).parseObject(json)
        } catch {
            throw PasskeyError(.malformed, "response JSON: \(error.reason)")
        }
        guard root["type"]?.stringValue == "public-key" else {
            throw PasskeyError(.malformed, "credential type is not \"public-key\"")
        }
        guard let response = root["response"]?.objectValue else { throw PasskeyError(.malformed, "no response object") }
        self.response = response
        let id = try Self.bytes(root["id"], "id")
        let rawID = try Self.bytes(root["rawId"], "rawId")
        guard id == rawID else { throw PasskeyError(.credentialIDMismatch, "id and rawId differ") }
        credentialID = rawID
    }

    /// The members every credential document has around its `response`.
    static func envelope(_ credentialID: [UInt8], response: [String: Any]) -> [String: Any] {
        let id = Base64URL.encode(credentialID)
        return [
            "id": id, "rawId": id, "type": "public-key", "clientExtensionResults": [String: Any](),
            "response": response,
        ]
    }

    static func bytes(_ value: JSONValue?, _ name: String) throws(PasskeyError) -> [UInt8] {
        guard let text = value?.stringValue else { throw PasskeyError(.malformed, "\(name) missing or not a string") }
        do {
            return try Base64URL.decode(text)
        } catch {
            throw PasskeyError(.malformed, "\(name) is not base64url")
        }
    }

    static func strings(_ value: JSONValue?, _ name: String) throws(PasskeyError) -> [String] {
        guard let value else { return [] }
        guard let array = value.arrayValue else { throw PasskeyError(.malformed, "\(name) is not an array") }
        guard array.count <= 16 else { throw PasskeyError(.malformed, "\(name) has too many entries") }
        return try array.map { item throws(PasskeyError) in
            guard let text = item.stringValue, (1...32).contains(text.utf8.count) else {
                throw PasskeyError(.malformed, "\(name) holds a non-string or oversized entry")
            }
            return text
        }
    }
}
