import Foundation

/// An authenticated cipher with associated data (AEAD) that Warden seals with: 256-bit keys, 96-bit nonces and
/// 128-bit tags only (RFC 5116 §5.1 for AES-GCM, RFC 8439 §2.8 for ChaCha20-Poly1305).
public enum AEADAlgorithm: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// AES-256 in Galois/Counter Mode (NIST SP 800-38D): hardware-accelerated on every Apple device and most servers.
    case aes256GCM = 1
    /// ChaCha20-Poly1305 (RFC 8439): constant-time in software, for CPUs without AES instructions.
    case chaCha20Poly1305 = 2

    /// The key length in bytes (32 for both).
    public static let keyByteCount = 32
    /// The nonce length in bytes (12 for both; other lengths are refused).
    public static let nonceByteCount = 12
    /// The tag length in bytes (16 for both; truncated tags are refused).
    public static let tagByteCount = 16

    /// `aes-256-gcm` or `chacha20-poly1305`, as the CLI spells them.
    public var description: String {
        switch self {
        case .aes256GCM: "aes-256-gcm"
        case .chaCha20Poly1305: "chacha20-poly1305"
        }
    }

    /// The algorithm named as ``description`` spells it, or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}

/// A sealed message: the nonce it was sealed under, the ciphertext and the tag.
///
/// ``combined`` is `nonce ‖ ciphertext ‖ tag`, the layout CryptoKit's `combined` uses for both algorithms.
public struct AEADSealedBox: Sendable, Equatable {
    /// The 12-byte nonce.
    public let nonce: [UInt8]
    /// The ciphertext, as long as the plaintext.
    public let ciphertext: [UInt8]
    /// The 16-byte tag.
    public let tag: [UInt8]

    /// A box from its parts.
    /// - Throws: ``CryptoErrorDomain/Code/malformedInput`` for a nonce that is not 12 bytes or a tag that is not 16.
    public init(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]) throws(CryptoError) {
        guard nonce.count == AEADAlgorithm.nonceByteCount else {
            throw CryptoError(.malformedInput, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
        guard tag.count == AEADAlgorithm.tagByteCount else {
            throw CryptoError(.malformedInput, "an AEAD tag is 16 bytes, not \(tag.count)")
        }
        self.nonce = nonce
        self.ciphertext = ciphertext
        self.tag = tag
    }

    /// A box from `nonce ‖ ciphertext ‖ tag`.
    /// - Throws: ``CryptoErrorDomain/Code/malformedInput`` when shorter than a nonce and a tag.
    public init(combined: [UInt8]) throws(CryptoError) {
        let overhead = AEADAlgorithm.nonceByteCount + AEADAlgorithm.tagByteCount
        guard combined.count >= overhead else {
            throw CryptoError(.malformedInput, "a sealed box is at least \(overhead) bytes, not \(combined.count)")
        }
        try self.init(
            nonce: Array(combined.prefix(AEADAlgorithm.nonceByteCount)),
            ciphertext: Array(combined[AEADAlgorithm.nonceByteCount..<(combined.count - AEADAlgorithm.tagByteCount)]),
            tag: Array(combined.suffix(AEADAlgorithm.tagByteCount)))
    }

    /// `nonce ‖ ciphertext ‖ tag`.
    public var combined: [UInt8] { nonce + ciphertext + tag }
}

/// A 256-bit AEAD key with a nonce policy under which no nonce repeats.
///
/// ```swift
/// let key = try AEADKey.generate(.aes256GCM)
/// let box = try key.seal(Array("draft".utf8), authenticating: Array("drafts/1".utf8))
/// let plaintext = try key.open(box, authenticating: Array("drafts/1".utf8))
/// ```
///
/// **Nonces.** ``seal(_:authenticating:)`` draws a random 96-bit nonce per message. Random nonces are safe up to
/// ``messageLimit`` messages per key (2³², NIST SP 800-38D §8.3: the chance of any repeat stays below 2⁻³²); the key
/// counts its messages and refuses the next one with ``CryptoErrorDomain/Code/keyExhausted`` — rotate to a new key
/// before that (`SealedStore` derives a fresh key per file, so its master key never comes near it). The count is
/// this instance's: a key loaded again in another process starts from zero, which is why stores derive per-file keys
/// rather than sharing one sealing key between processes. Protocols that fix the nonce themselves use
/// ``seal(_:nonce:authenticating:)``, which takes nonces only in increasing order (as 96-bit big-endian counters,
/// like TLS record numbers), so a repeated or older nonce is ``CryptoErrorDomain/Code/nonceReused``.
///
/// The key prints `<redacted>`. Thread-safety: the counters are lock-guarded; share one key freely.
public final class AEADKey: @unchecked Sendable, CustomStringConvertible, CustomReflectable {  // NSLock-guarded
    /// Messages a key seals under random nonces before it refuses (2³²).
    public static let messageLimit: UInt64 = 1 << 32

    /// The algorithm this key is for.
    public let algorithm: AEADAlgorithm
    let bytes: [UInt8]
    private let backing: AEADKeyBacking
    private let limit: UInt64
    private let lock = NSLock()
    private var sealed: UInt64 = 0
    private var lastExplicitNonce: [UInt8]?

    /// A key from 32 bytes the caller keeps secret (from a Keychain item, HKDF or X25519).
    /// - Throws: ``CryptoErrorDomain/Code/invalidKey`` for any other length.
    public convenience init(_ bytes: some ContiguousBytes, algorithm: AEADAlgorithm) throws(CryptoError) {
        try self.init(bytes, algorithm: algorithm, messageLimit: Self.messageLimit)
    }

    /// A key with another message limit, for tests of the limit itself.
    package init(_ bytes: some ContiguousBytes, algorithm: AEADAlgorithm, messageLimit: UInt64) throws(CryptoError) {
        let raw = bytes.withUnsafeBytes { Array($0) }
        guard raw.count == AEADAlgorithm.keyByteCount else {
            throw CryptoError(.invalidKey, "an AEAD key is 32 bytes, not \(raw.count)")
        }
        self.algorithm = algorithm
        self.bytes = raw
        backing = AEADKeyBacking(algorithm, key: raw)
        limit = messageLimit
    }

    /// A new random key from the system CSPRNG.
    /// - Throws: ``CryptoErrorDomain/Code/randomUnavailable``.
    public static func generate(_ algorithm: AEADAlgorithm) throws(CryptoError) -> AEADKey {
        try AEADKey(try SecureRandom().bytes(count: AEADAlgorithm.keyByteCount), algorithm: algorithm)
    }

    /// How many messages this instance has sealed.
    public var messagesSealed: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return sealed
    }

    /// The key's 32 bytes, for storing it (a Keychain item, a wrapped blob). Never log them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Seals `plaintext` under a fresh random nonce, authenticating `associatedData` too.
    /// - Throws: ``CryptoErrorDomain/Code/keyExhausted`` past ``messageLimit``;
    ///   ``CryptoErrorDomain/Code/randomUnavailable`` when the system cannot give a nonce.
    public func seal(_ plaintext: some ContiguousBytes, authenticating associatedData: some ContiguousBytes = [UInt8]())
        throws(CryptoError) -> AEADSealedBox
    {
        try count()
        let nonce = try SecureRandom().bytes(count: AEADAlgorithm.nonceByteCount)
        return try AEADPrimitive.seal(backing, nonce: nonce, plaintext, associatedData)
    }

    /// Seals under a nonce the protocol chose. Nonces must increase (big-endian) from one call to the next on this key.
    /// - Throws: ``CryptoErrorDomain/Code/nonceReused`` for a nonce not above the last one given;
    ///   ``CryptoErrorDomain/Code/malformedInput`` for a nonce that is not 12 bytes;
    ///   ``CryptoErrorDomain/Code/keyExhausted`` past ``messageLimit``.
    public func seal(
        _ plaintext: some ContiguousBytes, nonce: [UInt8],
        authenticating associatedData: some ContiguousBytes = [UInt8]()
    ) throws(CryptoError) -> AEADSealedBox {
        guard nonce.count == AEADAlgorithm.nonceByteCount else {
            throw CryptoError(.malformedInput, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
        lock.lock()
        if let last = lastExplicitNonce, !last.lexicographicallyPrecedes(nonce) {
            lock.unlock()
            throw CryptoError(.nonceReused, "this key has already sealed under this nonce or a later one")
        }
        lastExplicitNonce = nonce
        lock.unlock()
        try count()
        return try AEADPrimitive.seal(backing, nonce: nonce, plaintext, associatedData)
    }

    /// Opens `box`, checking its tag over the ciphertext and `associatedData` before returning anything.
    /// - Throws: ``CryptoErrorDomain/Code/authenticationFailed`` when anything was changed or the key is wrong.
    public func open(_ box: AEADSealedBox, authenticating associatedData: some ContiguousBytes = [UInt8]())
        throws(CryptoError) -> [UInt8]
    {
        try AEADPrimitive.open(backing, nonce: box.nonce, box.ciphertext, tag: box.tag, associatedData)
    }

    private func count() throws(CryptoError) {
        lock.lock()
        defer { lock.unlock() }
        guard sealed < limit else {
            throw CryptoError(.keyExhausted, "this key has sealed \(sealed) messages, its limit: rotate the key")
        }
        sealed += 1
    }

    public var description: String { "AEADKey(\(algorithm), <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// The checked one-shot calls under ``AEADKey``, with any nonce: for test vectors and formats that derive their key
/// per message (`SealedStore`). Lengths are checked here, once, for both backends.
package enum AEADPrimitive {
    /// Plaintexts and ciphertexts above this are refused (GCM's own limit is 2³⁹ − 256 bits; this is well inside it
    /// and inside `Int32` for OpenSSL's length arguments).
    package static let maximumMessageBytes = 1 << 30

    package static func seal(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], _ plaintext: some ContiguousBytes,
        _ associatedData: some ContiguousBytes
    ) throws(CryptoError) -> AEADSealedBox {
        try check(key: key, nonce: nonce)
        return try seal(AEADKeyBacking(algorithm, key: key), nonce: nonce, plaintext, associatedData)
    }

    static func seal(
        _ backing: AEADKeyBacking, nonce: [UInt8], _ plaintext: some ContiguousBytes,
        _ associatedData: some ContiguousBytes
    ) throws(CryptoError) -> AEADSealedBox {
        guard nonce.count == AEADAlgorithm.nonceByteCount else {
            throw CryptoError(.malformedInput, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
        let result = plaintext.withUnsafeBytes { plaintext in
            associatedData.withUnsafeBytes { aad -> (ciphertext: [UInt8], tag: [UInt8])? in
                guard plaintext.count <= maximumMessageBytes, aad.count <= maximumMessageBytes else { return nil }
                return backing.seal(nonce: nonce, plaintext: plaintext, aad: aad)
            }
        }
        guard let result else {
            throw CryptoError(
                .inputTooLarge, "AEAD input is limited to \(maximumMessageBytes) bytes, or the backend failed")
        }
        return try AEADSealedBox(nonce: nonce, ciphertext: result.ciphertext, tag: result.tag)
    }

    package static func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], _ ciphertext: [UInt8], tag: [UInt8],
        _ associatedData: some ContiguousBytes
    ) throws(CryptoError) -> [UInt8] {
        try check(key: key, nonce: nonce)
        return try open(AEADKeyBacking(algorithm, key: key), nonce: nonce, ciphertext, tag: tag, associatedData)
    }

    static func open(
        _ backing: AEADKeyBacking, nonce: [UInt8], _ ciphertext: [UInt8], tag: [UInt8],
        _ associatedData: some ContiguousBytes
    ) throws(CryptoError) -> [UInt8] {
        guard nonce.count == AEADAlgorithm.nonceByteCount else {
            throw CryptoError(.malformedInput, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
        guard tag.count == AEADAlgorithm.tagByteCount else {
            throw CryptoError(.authenticationFailed, "an AEAD tag is 16 bytes, not \(tag.count)")
        }
        guard ciphertext.count <= maximumMessageBytes,
            associatedData.withUnsafeBytes({ $0.count }) <= maximumMessageBytes
        else {
            throw CryptoError(.inputTooLarge, "AEAD input is limited to \(maximumMessageBytes) bytes")
        }
        let plaintext = associatedData.withUnsafeBytes { aad in
            backing.open(nonce: nonce, ciphertext: ciphertext, tag: tag, aad: aad)
        }
        guard let plaintext else {
            throw CryptoError(
                .authenticationFailed, "the sealed data did not authenticate (changed, cut, or another key)")
        }
        return plaintext
    }

    private static func check(key: [UInt8], nonce: [UInt8]) throws(CryptoError) {
        guard key.count == AEADAlgorithm.keyByteCount else {
            throw CryptoError(.invalidKey, "an AEAD key is 32 bytes, not \(key.count)")
        }
        guard nonce.count == AEADAlgorithm.nonceByteCount else {
            throw CryptoError(.malformedInput, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
    }
}
