/// Authenticator data (WebAuthn Level 3 §6.1), parsed strictly: every byte accounted for, attested credential
/// data and extensions present exactly when their flags say so.
///
/// ```swift
/// let data = try AuthenticatorData(bytes: authenticatorDataBytes)
/// data.flags.userVerified, data.signCount, data.attestedCredential?.credentialID
/// ```
public struct AuthenticatorData: Sendable {
    /// The flags byte.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP: the user was present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified (biometrics, PIN).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential can be backed up (a synced passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        public static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: an extensions map follows.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The attested credential data of a registration.
    public struct AttestedCredential: Sendable {
        /// The authenticator model's AAGUID (16 bytes; all zero for `none` attestation on many platforms).
        public let aaguid: [UInt8]
        /// The credential ID (at most 1023 bytes).
        public let credentialID: [UInt8]
        /// The credential public key.
        public let publicKey: COSEKey
    }

    /// The longest credential ID accepted (WebAuthn §6.5.1).
    public static let maximumCredentialIDBytes = 1023
    /// The largest authenticator data accepted.
    public static let maximumBytes = 64 * 1024

    /// The raw bytes (what signatures cover).
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the authenticator used.
    public let rpIDHash: [UInt8]
    /// The flags byte (UP, UV, BE, BS, AT, ED).
    public let flags: Flags
    /// The signature counter (0 when the authenticator does not keep one).
    public let signCount: UInt32
    /// Present when the AT flag is set.
    public let attestedCredential: AttestedCredential?
    /// The extension outputs, when the ED flag is set.
    public let extensions: CBORValue?

    /// Parses authenticator data.
    ///
    /// - Throws: ``PasskeyErrorDomain/Code/malformed`` for truncation, trailing bytes or bad CBOR,
    ///   ``PasskeyErrorDomain/Code/invalidFlags`` when the flags contradict the data (BS without BE),
    ///   ``PasskeyErrorDomain/Code/tooLarge`` above 64 KiB, and COSE key errors for the credential public key.
    public init(bytes: [UInt8]) throws(PasskeyError) {
        guard bytes.count <= Self.maximumBytes else { throw PasskeyError(.tooLarge, "authenticator data over 64 KiB") }
        guard bytes.count >= 37 else { throw PasskeyError(.malformed, "authenticator data shorter than 37 bytes") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        if flags.contains(.backedUp), !flags.contains(.backupEligible) {
            throw PasskeyError(.invalidFlags, "BS is set but BE is not")
        }
        var offset = 37
        let decoder = CBORDecoder(maximumBytes: Self.maximumBytes, maximumDepth: 8)
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else {
                throw PasskeyError(.malformed, "attested credential data truncated")
            }
            let aaguid = Array(bytes[offset..<(offset + 16)])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length > 0 else { throw PasskeyError(.malformed, "empty credential ID") }
            guard length <= Self.maximumCredentialIDBytes else {
                throw PasskeyError(.malformed, "credential ID longer than 1023 bytes")
            }
            guard bytes.count >= offset + length else { throw PasskeyError(.malformed, "credential ID truncated") }
            let credentialID = Array(bytes[offset..<(offset + length)])
            offset += length
            let rest = Array(bytes[offset...])
            let (value, used): (CBORValue, Int)
            do {
                (value, used) = try decoder.decodePrefix(rest)
            } catch {
                throw PasskeyError(.malformed, "credential public key: \(error)")
            }
            let key = try COSEKey(value: value, encoded: Array(rest[0..<used]))
            offset += used
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard offset < bytes.count else { throw PasskeyError(.invalidFlags, "ED is set but no extensions follow") }
            let (value, used): (CBORValue, Int)
            do {
                (value, used) = try decoder.decodePrefix(Array(bytes[offset...]))
            } catch {
                throw PasskeyError(.malformed, "extensions: \(error)")
            }
            guard case .map = value else { throw PasskeyError(.malformed, "extensions are not a CBOR map") }
            offset += used
            extensions = value
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw PasskeyError(.malformed, "\(bytes.count - offset) trailing bytes after the authenticator data")
        }
    }
}
