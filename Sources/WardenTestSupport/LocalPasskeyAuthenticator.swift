import WardenCrypto
import WardenJOSE
import WardenPasskeys

/// A software passkey authenticator (ES256, `none` attestation, a signature counter) for the demo and benchmarks —
/// **never for production**: its private key lives in process memory.
///
/// It produces exactly what a browser hands to the server: registration and assertion responses over
/// `authenticatorData`, `clientDataJSON` and an ASN.1 DER ECDSA signature.
///
/// ```swift
/// var authenticator = try LocalPasskeyAuthenticator()
/// let registration = try authenticator.register(rpID: "example.com", origin: "https://example.com", challenge: c1)
/// let assertion = try authenticator.assert(rpID: "example.com", origin: "https://example.com", challenge: c2)
/// ```
package struct LocalPasskeyAuthenticator: Sendable {
    private let key: ECPrivateKey
    /// The credential ID (32 random bytes).
    package let credentialID: [UInt8]
    /// The counter of the next assertion is one more than this.
    package private(set) var signCount: UInt32 = 0
    /// The user handle assertions return (set at registration).
    package private(set) var userHandle: [UInt8]?

    package init() throws {
        key = try ECPrivateKey(curve: .p256)
        credentialID = try SecureRandom().bytes(count: 32)
    }

    /// The credential's COSE_Key.
    package var publicKey: COSEKey {
        get throws { try COSEKey(publicKey: key.publicKey, algorithm: .es256) }
    }

    /// A registration (`navigator.credentials.create`) for `challenge`, user present and verified.
    package mutating func register(rpID: String, origin: String, challenge: [UInt8], userHandle: [UInt8]? = nil)
        throws -> RegistrationResponse
    {
        self.userHandle = userHandle
        let clientData = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let attested =
            [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]
            + credentialID + (try publicKey.encoded)
        let authenticatorData = Self.authenticatorData(rpID: rpID, flags: 0x45, count: 0) + attested
        let object = CBOREncoder.encode(
            CBOREncoder.map([
                (.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                (.text("authData"), .bytes(authenticatorData)),
            ]))
        return RegistrationResponse(
            credentialID: credentialID, clientDataJSON: clientData, attestationObject: object, transports: ["internal"])
    }

    /// A sign-in (`navigator.credentials.get`) for `challenge`, counting up.
    package mutating func assert(rpID: String, origin: String, challenge: [UInt8]) throws -> AssertionResponse {
        signCount += 1
        return try assertion(rpID: rpID, origin: origin, challenge: challenge, count: signCount)
    }

    /// A sign-in with a chosen counter (a cloned authenticator replays an old one).
    package func assertion(rpID: String, origin: String, challenge: [UInt8], count: UInt32) throws -> AssertionResponse
    {
        let clientData = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let authenticatorData = Self.authenticatorData(rpID: rpID, flags: 0x05, count: count)
        let signature = try key.signature(for: authenticatorData + HashFunction.sha256.hash(clientData))
        return AssertionResponse(
            credentialID: credentialID, clientDataJSON: clientData, authenticatorData: authenticatorData,
            signature: try ECDSASignature.der(fromRaw: signature), userHandle: userHandle)
    }

    static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#
                .utf8)
    }

    /// rpIdHash ‖ flags ‖ signCount (big-endian).
    static func authenticatorData(rpID: String, flags: UInt8, count: UInt32) -> [UInt8] {
        HashFunction.sha256.hash(Array(rpID.utf8)) + [flags]
            + [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }
}
