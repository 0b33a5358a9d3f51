import Foundation
import WardenCrypto

/// The bytes of one sealed file or blob, version 1:
///
/// ```text
/// "WSLD" | version 1 | algorithm (1 AES-256-GCM, 2 ChaCha20-Poly1305) | key ID (16) | salt (32) | nonce (12)
///        | ciphertext | tag (16)
/// ```
///
/// Each message is sealed under its own key, HKDF-SHA256(master key, salt, "warden.sealed.v1" ‖ algorithm ‖ key ID),
/// with a random 32-byte salt and a random nonce, so a master key never comes near AES-GCM's random-nonce limit
/// however many files it seals. The associated data is the whole header followed by the length-prefixed context
/// (a file's name), so a file moved to another name, a header changed, or another key's file, does not open.
package enum SealedFormat {
    package static let magic: [UInt8] = Array("WSLD".utf8)
    package static let version: UInt8 = 1
    package static let keyIDByteCount = 16
    package static let saltByteCount = 32
    /// magic + version + algorithm + key ID + salt + nonce.
    package static let headerByteCount = 4 + 1 + 1 + keyIDByteCount + saltByteCount + AEADAlgorithm.nonceByteCount
    package static let overhead = headerByteCount + AEADAlgorithm.tagByteCount
    /// A context (a file's name) is at most this many UTF-8 bytes.
    package static let maximumContextBytes = 1024

    package struct Header: Equatable, Sendable {
        package let algorithm: AEADAlgorithm
        package let keyID: [UInt8]
        package let salt: [UInt8]
        package let nonce: [UInt8]

        package var bytes: [UInt8] { magic + [version, algorithm.rawValue] + keyID + salt + nonce }
    }

    /// The parts of `sealed`, checked for shape only (authenticity is the AEAD's job).
    /// - Throws: ``StorageErrorDomain/Code/corruptedData`` for bytes that are not a version-1 sealed message,
    ///   ``StorageErrorDomain/Code/itemTooLarge`` above `maximumBytes`.
    package static func parse(_ sealed: [UInt8], maximumBytes: Int) throws(StorageError) -> (
        header: Header, ciphertext: [UInt8], tag: [UInt8]
    ) {
        guard sealed.count <= maximumBytes else {
            throw StorageError(.itemTooLarge, "sealed data is limited to \(maximumBytes) bytes")
        }
        guard sealed.count >= overhead else {
            throw StorageError(
                .corruptedData, "not sealed data: \(sealed.count) bytes, shorter than a header and a tag")
        }
        guard Array(sealed[0..<4]) == magic else {
            throw StorageError(.corruptedData, "not sealed data: the first bytes are not Warden's sealed format")
        }
        guard sealed[4] == version else {
            throw StorageError(.corruptedData, "sealed format version \(sealed[4]) is not one this version reads")
        }
        guard let algorithm = AEADAlgorithm(rawValue: sealed[5]) else {
            throw StorageError(.corruptedData, "sealed data names an unknown algorithm (\(sealed[5]))")
        }
        var cursor = 6
        func take(_ count: Int) -> [UInt8] {
            defer { cursor += count }
            return Array(sealed[cursor..<(cursor + count)])
        }
        let header = Header(
            algorithm: algorithm, keyID: take(keyIDByteCount), salt: take(saltByteCount),
            nonce: take(AEADAlgorithm.nonceByteCount))
        let ciphertext = Array(sealed[cursor..<(sealed.count - AEADAlgorithm.tagByteCount)])
        return (header, ciphertext, Array(sealed.suffix(AEADAlgorithm.tagByteCount)))
    }

    /// The header followed by the context's length (4 bytes, big-endian) and UTF-8 bytes.
    package static func associatedData(_ header: Header, context: String) -> [UInt8] {
        let name = Array(context.utf8)
        let length = UInt32(name.count)
        return header.bytes + [
            UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF),
        ]
            + name
    }

    /// The per-message key.
    package static func messageKey(master: [UInt8], header: Header) throws(StorageError) -> [UInt8] {
        do {
            return try HKDF.deriveKey(
                from: master, salt: header.salt,
                info: Array("warden.sealed.v1".utf8) + [header.algorithm.rawValue] + header.keyID,
                byteCount: AEADAlgorithm.keyByteCount)
        } catch {
            throw StorageError(.backendFailure, "the crypto backend could not derive a key: \(error.reason)")
        }
    }

    /// Seals `plaintext` for `context` under `master` (whose ID is `keyID`).
    package static func seal(
        _ plaintext: [UInt8], context: String, master: [UInt8], keyID: [UInt8], algorithm: AEADAlgorithm
    ) throws(StorageError) -> [UInt8] {
        let salt: [UInt8]
        let nonce: [UInt8]
        do {
            salt = try SecureRandom().bytes(count: saltByteCount)
            nonce = try SecureRandom().bytes(count: AEADAlgorithm.nonceByteCount)
        } catch {
            throw StorageError(.backendFailure, "the system random source failed")
        }
        let header = Header(algorithm: algorithm, keyID: keyID, salt: salt, nonce: nonce)
        let key = try messageKey(master: master, header: header)
        do {
            let box = try AEADPrimitive.seal(
                algorithm, key: key, nonce: nonce, plaintext, associatedData(header, context: context))
            return header.bytes + box.ciphertext + box.tag
        } catch {
            throw StorageError(.backendFailure, "sealing failed: \(error.reason)")
        }
    }

    /// Opens a parsed message with `master`.
    /// - Throws: ``StorageErrorDomain/Code/tampered`` when it does not authenticate.
    package static func open(
        header: Header, ciphertext: [UInt8], tag: [UInt8], context: String, master: [UInt8]
    ) throws(StorageError) -> [UInt8] {
        let key = try messageKey(master: master, header: header)
        do {
            return try AEADPrimitive.open(
                header.algorithm, key: key, nonce: header.nonce, ciphertext, tag: tag,
                associatedData(header, context: context))
        } catch {
            throw StorageError(
                .tampered, "the sealed data for '\(context)' did not authenticate: changed, cut, moved or another key's"
            )
        }
    }
}

/// The store's master keys, newest first, as kept in the key store: `version 1 | count | (key ID 16 | key 32)*`.
/// Prints its key IDs only.
package struct SealingKeyring: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
    package struct Entry: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
        package let id: [UInt8]
        package let key: [UInt8]
        package var description: String { "key \(id.prefix(4).map { String($0, radix: 16) }.joined())…, <redacted>" }
        package var customMirror: Mirror { Mirror(self, children: []) }
    }
    package var description: String { "SealingKeyring(\(entries.map(\.description)))" }
    package var customMirror: Mirror { Mirror(self, children: []) }

    /// More keys than this are refused (a list counts its keys in one byte).
    package static let maximumKeys = 16
    package var entries: [Entry]

    package var current: Entry { entries[0] }

    package func key(for id: [UInt8]) -> [UInt8]? { entries.first { $0.id == id }?.key }

    package static func generate() throws(StorageError) -> Entry {
        do {
            return Entry(
                id: try SecureRandom().bytes(count: SealedFormat.keyIDByteCount),
                key: try SecureRandom().bytes(count: AEADAlgorithm.keyByteCount))
        } catch {
            throw StorageError(.backendFailure, "the system random source failed")
        }
    }

    package var bytes: [UInt8] {
        [1, UInt8(min(entries.count, 255))] + entries.prefix(255).flatMap { $0.id + $0.key }
    }

    package init(entries: [Entry]) { self.entries = entries }

    package init(bytes: [UInt8]) throws(StorageError) {
        let size = SealedFormat.keyIDByteCount + AEADAlgorithm.keyByteCount
        guard bytes.count >= 2, bytes[0] == 1, bytes[1] > 0, Int(bytes[1]) <= Self.maximumKeys,
            bytes.count == 2 + Int(bytes[1]) * size
        else {
            throw StorageError(.corruptedData, "the sealed store's key item is not a key list this version reads")
        }
        entries = (0..<Int(bytes[1])).map { index in
            let start = 2 + index * size
            return Entry(
                id: Array(bytes[start..<(start + SealedFormat.keyIDByteCount)]),
                key: Array(bytes[(start + SealedFormat.keyIDByteCount)..<(start + size)]))
        }
    }
}

/// The sealed format's readers over arbitrary bytes, for the fuzz target (Fuzz/Sources/FuzzSealedFormat) only, not API.
@_spi(Fuzzing) public enum SealedFormatFuzzing {
    /// The fuzz target's master key (32 × 0x01) and key ID (16 × 0x02), which its seeds are sealed under.
    static let master = [UInt8](repeating: 1, count: 32)
    static let keyID = [UInt8](repeating: 2, count: 16)

    /// Reads `bytes` as a key list and as a sealed message (opened with the fixed key for the context "fuzz"), then
    /// seals `bytes` itself and checks that it opens back and that one changed byte does not. Returns whether the
    /// input opened as a sealed message; violations of the properties trap.
    public static func run(_ bytes: [UInt8]) -> Bool {
        _ = try? SealingKeyring(bytes: bytes)
        var opened = false
        if let parts = try? SealedFormat.parse(bytes, maximumBytes: 1 << 20) {
            opened =
                (try? SealedFormat.open(
                    header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: "fuzz", master: master))
                != nil
        }
        let plaintext = Array(bytes.prefix(4096))
        guard
            let sealed = try? SealedFormat.seal(
                plaintext, context: "fuzz", master: master, keyID: keyID, algorithm: .aes256GCM),
            let parts = try? SealedFormat.parse(sealed, maximumBytes: 1 << 20)
        else { preconditionFailure("sealing failed") }
        let back = try? SealedFormat.open(
            header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: "fuzz", master: master)
        precondition(back == plaintext, "a sealed message did not open to its plaintext")
        var changed = sealed
        let index = bytes.isEmpty ? 0 : Int(bytes[0]) % changed.count
        changed[index] ^= 0x01
        if let parts = try? SealedFormat.parse(changed, maximumBytes: 1 << 20) {
            let forged = try? SealedFormat.open(
                header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: "fuzz", master: master)
            precondition(forged == nil, "a message with a changed byte opened")
        }
        return opened
    }
}
