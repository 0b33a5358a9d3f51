import Foundation
import Testing
import WardenTestSupport

@testable import WardenCrypto

/// AEAD, HKDF and X25519 against Wycheproof and the RFCs' own examples, and the nonce policy fed the inputs it
/// refuses.
@Suite struct AEADVectorTests {
    /// The groups Warden's AEAD takes: 256-bit keys, 96-bit nonces, 128-bit tags.
    static func supported(_ group: [String: Any]) -> Bool {
        group["keySize"] as? Int == 256 && group["ivSize"] as? Int == 96 && group["tagSize"] as? Int == 128
    }

    static func run(_ file: String, _ algorithm: AEADAlgorithm) throws -> Int {
        try Wycheproof.run(file, groups: supported) { item in
            let key = item.hex("key")
            let nonce = item.hex("iv")
            let aad = item.hex("aad")
            let message = item.hex("msg")
            let ciphertext = item.hex("ct")
            let tag = item.hex("tag")
            if item.result == "valid" {
                let sealed = try AEADPrimitive.seal(algorithm, key: key, nonce: nonce, message, aad)
                guard sealed.ciphertext == ciphertext, sealed.tag == tag else { return false }
            }
            let opened = try AEADPrimitive.open(algorithm, key: key, nonce: nonce, ciphertext, tag: tag, aad)
            return opened == message
        }
    }

    @Test func aes256GCMWycheproof() throws {
        #expect(try Self.run("aes_gcm_test.json", .aes256GCM) >= 60)
    }

    @Test func chaCha20Poly1305Wycheproof() throws {
        #expect(try Self.run("chacha20_poly1305_test.json", .chaCha20Poly1305) >= 250)
    }

    /// Every vector Warden does not take (AES-128/192, nonces other than 96 bits) is refused with a typed error,
    /// never sealed or opened.
    @Test(arguments: [
        ("aes_gcm_test.json", AEADAlgorithm.aes256GCM), ("chacha20_poly1305_test.json", .chaCha20Poly1305),
    ])
    func otherKeyAndNonceSizesAreRefused(file: String, algorithm: AEADAlgorithm) throws {
        let refused = try Wycheproof.run(file, groups: { !Self.supported($0) }) { item in
            do {
                _ = try AEADPrimitive.open(
                    algorithm, key: item.hex("key"), nonce: item.hex("iv"), item.hex("ct"), tag: item.hex("tag"),
                    item.hex("aad"))
                Issue.record(
                    "\(item.label): a key of \(item.hex("key").count) bytes with a \(item.hex("iv").count)-byte nonce was taken"
                )
            } catch let error as CryptoError {
                #expect(error.code == .invalidKey || error.code == .malformedInput, "\(item.label)")
            }
            return item.result == "valid"  // the refusal was checked above; keep the harness's tally
        }
        #expect(refused >= 9)
    }

    /// RFC 8439 §2.8.2: the AEAD_CHACHA20_POLY1305 example.
    @Test func rfc8439Example() throws {
        let key = Hex.decode("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = Hex.decode("070000004041424344454647")
        let aad = Hex.decode("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8)
        let expected = Hex.decode(
            """
            d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b\
            1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc\
            3ff4def08e4b7a9de576d26586cec64b6116
            """)
        let box = try AEADPrimitive.seal(.chaCha20Poly1305, key: key, nonce: nonce, plaintext, aad)
        #expect(box.ciphertext == expected)
        #expect(box.tag == Hex.decode("1ae10b594f09e26a7e902ecbd0600691"))
        #expect(try AEADKey(key, algorithm: .chaCha20Poly1305).open(box, authenticating: aad) == plaintext)
    }
}

@Suite struct AEADKeyPolicyTests {
    let plaintext = Array("a cached profile".utf8)
    let aad = Array("profile.json".utf8)

    @Test(arguments: AEADAlgorithm.allCases)
    func randomNoncesRoundTripAndDiffer(algorithm: AEADAlgorithm) throws {
        let key = try AEADKey.generate(algorithm)
        let first = try key.seal(plaintext, authenticating: aad)
        let second = try key.seal(plaintext, authenticating: aad)
        #expect(first.nonce != second.nonce)
        #expect(first.ciphertext != second.ciphertext)
        #expect(try key.open(first, authenticating: aad) == plaintext)
        #expect(try key.open(AEADSealedBox(combined: second.combined), authenticating: aad) == plaintext)
        #expect(key.messagesSealed == 2)
    }

    /// Every changed part — a ciphertext bit, the tag, the nonce, the associated data, a cut, another key —
    /// is `authentication_failed`, and nothing of the plaintext comes back.
    @Test(arguments: AEADAlgorithm.allCases)
    func tamperingTruncationAndAWrongKeyAreRefused(algorithm: AEADAlgorithm) throws {
        let key = try AEADKey.generate(algorithm)
        let box = try key.seal(plaintext, authenticating: aad)
        var flipped = box.ciphertext
        flipped[3] ^= 0x01
        var badTag = box.tag
        badTag[15] ^= 0x80
        var badNonce = box.nonce
        badNonce[0] ^= 0x01
        let variants: [(String, AEADSealedBox, [UInt8])] = [
            ("ciphertext", try AEADSealedBox(nonce: box.nonce, ciphertext: flipped, tag: box.tag), aad),
            ("tag", try AEADSealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: badTag), aad),
            ("nonce", try AEADSealedBox(nonce: badNonce, ciphertext: box.ciphertext, tag: box.tag), aad),
            ("associated data", box, Array("other.json".utf8)),
            (
                "cut", try AEADSealedBox(nonce: box.nonce, ciphertext: Array(box.ciphertext.dropLast()), tag: box.tag),
                aad
            ),
        ]
        for (label, variant, associated) in variants {
            #expect(throws: CryptoError(.authenticationFailed), "\(label)") {
                try key.open(variant, authenticating: associated)
            }
        }
        let other = try AEADKey.generate(algorithm)
        #expect(throws: CryptoError(.authenticationFailed)) { try other.open(box, authenticating: aad) }
        let otherAlgorithm = try AEADKey(
            key.withUnsafeBytes { Array($0) }, algorithm: algorithm == .aes256GCM ? .chaCha20Poly1305 : .aes256GCM)
        #expect(throws: CryptoError(.authenticationFailed)) { try otherAlgorithm.open(box, authenticating: aad) }
        #expect(throws: CryptoError(.malformedInput)) { try AEADSealedBox(combined: Array(box.combined.prefix(27))) }
        #expect(throws: CryptoError(.malformedInput)) {
            try AEADSealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: Array(box.tag.prefix(12)))
        }
    }

    /// A key's reused cipher contexts agree with fresh one-shot ones both ways, and a failed open leaves the key able
    /// to open the next good box (a context from a failed operation is never handed out again).
    @Test(arguments: AEADAlgorithm.allCases)
    func reusedContextsAgreeWithFreshOnesAndSurviveAFailure(algorithm: AEADAlgorithm) throws {
        let raw = try SecureRandom().bytes(count: 32)
        let key = try AEADKey(raw, algorithm: algorithm)
        for round in 0..<3 {
            let box = try key.seal(plaintext, authenticating: aad)
            #expect(
                try AEADPrimitive.open(algorithm, key: raw, nonce: box.nonce, box.ciphertext, tag: box.tag, aad)
                    == plaintext)
            let nonce = [UInt8](repeating: UInt8(round), count: 12)
            let fresh = try AEADPrimitive.seal(algorithm, key: raw, nonce: nonce, plaintext, aad)
            #expect(try key.open(fresh, authenticating: aad) == plaintext)
            var bad = fresh.tag
            bad[0] ^= 1
            #expect(throws: CryptoError(.authenticationFailed)) {
                try key.open(
                    AEADSealedBox(nonce: fresh.nonce, ciphertext: fresh.ciphertext, tag: bad), authenticating: aad)
            }
            #expect(try key.open(fresh, authenticating: aad) == plaintext)
        }
    }

    /// A protocol's own nonces must increase: the same one again, or an older one, is `nonce_reused`.
    @Test func aReusedOrOlderExplicitNonceIsRefused() throws {
        let key = try AEADKey.generate(.aes256GCM)
        let one = [UInt8](repeating: 0, count: 11) + [1]
        let two = [UInt8](repeating: 0, count: 11) + [2]
        _ = try key.seal(plaintext, nonce: one)
        _ = try key.seal(plaintext, nonce: two)
        #expect(throws: CryptoError(.nonceReused)) { try key.seal(plaintext, nonce: two) }
        #expect(throws: CryptoError(.nonceReused)) { try key.seal(plaintext, nonce: one) }
        #expect(throws: CryptoError(.malformedInput)) { try key.seal(plaintext, nonce: [0, 1, 2]) }
        #expect(key.messagesSealed == 2)
    }

    @Test func aKeyPastItsMessageLimitRefusesToSeal() throws {
        let key = try AEADKey(try SecureRandom().bytes(count: 32), algorithm: .chaCha20Poly1305, messageLimit: 3)
        for _ in 0..<3 { _ = try key.seal(plaintext) }
        #expect(throws: CryptoError(.keyExhausted)) { try key.seal(plaintext) }
        #expect(AEADKey.messageLimit == 1 << 32)
    }

    @Test func keysOfTheWrongLengthAreRefusedAndNeverPrinted() throws {
        #expect(throws: CryptoError(.invalidKey)) {
            try AEADKey([UInt8](repeating: 1, count: 16), algorithm: .aes256GCM)
        }
        #expect(throws: CryptoError(.invalidKey)) {
            try AEADKey([UInt8](repeating: 1, count: 33), algorithm: .aes256GCM)
        }
        let key = try AEADKey([UInt8](repeating: 0xAB, count: 32), algorithm: .aes256GCM)
        #expect(!"\(key)".lowercased().contains("ab"))
        #expect(!String(reflecting: key).lowercased().contains("abab"))
    }

    /// A megabyte in, a megabyte out; an empty plaintext still gets a tag.
    @Test func aMegabyteAndAnEmptyMessage() throws {
        let key = try AEADKey.generate(.aes256GCM)
        let large = try SecureRandom().bytes(count: 1 << 20)
        #expect(try key.open(key.seal(large)) == large)
        let empty = try key.seal([UInt8]())
        #expect(empty.ciphertext.isEmpty && empty.tag.count == 16)
        #expect(try key.open(empty) == [])
    }
}

@Suite struct HKDFTests {
    @Test func wycheproofHKDFSHA256() throws {
        let count = try Wycheproof.run("hkdf_sha256_test.json") { item in
            let okm = try HKDF.deriveKey(
                from: item.hex("ikm"), salt: item.hex("salt"), info: item.hex("info"),
                byteCount: item.test["size"] as! Int)
            return okm == item.hex("okm")
        }
        #expect(count >= 80)
    }

    /// RFC 5869 Appendix A.1 and A.3 (SHA-256; A.3 has an empty salt and info).
    @Test func rfc5869Examples() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        #expect(
            try HKDF.deriveKey(
                from: ikm, salt: Hex.decode("000102030405060708090a0b0c"), info: Hex.decode("f0f1f2f3f4f5f6f7f8f9"),
                byteCount: 42)
                == Hex.decode("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        #expect(
            try HKDF.deriveKey(from: ikm, salt: [UInt8](), info: [UInt8](), byteCount: 42)
                == Hex.decode("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test func outputLengthsOutsideTheRFCsRangeAreRefused() {
        for count in [0, -1, 255 * 32 + 1] {
            #expect(throws: CryptoError(.malformedInput)) {
                try HKDF.deriveKey(from: [1, 2, 3], salt: [UInt8](), info: [UInt8](), byteCount: count)
            }
        }
    }
}

@Suite struct X25519Tests {
    /// Wycheproof: every valid vector agrees; a small-order peer (all-zero secret) is refused, never returned.
    @Test func wycheproofX25519() throws {
        let count = try Wycheproof.run("x25519_test.json") { item in
            let flags = item.test["flags"] as? [String] ?? []
            let key = try X25519PrivateKey(rawRepresentation: item.hex("private"))
            let peer = try X25519PublicKey(rawRepresentation: item.hex("public"))
            if flags.contains("ZeroSharedSecret") {
                #expect(throws: CryptoError(.invalidKey), "\(item.label)") { try key.sharedSecret(with: peer) }
                return false
            }
            return try key.sharedSecret(with: peer) == item.hex("shared")
        }
        #expect(count >= 500)
    }

    /// RFC 7748 §6.1: both sides of the example reach the same secret.
    @Test func rfc7748Example() throws {
        let alice = try X25519PrivateKey(
            rawRepresentation: Hex.decode("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try X25519PrivateKey(
            rawRepresentation: Hex.decode("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(
            alice.publicKey.rawRepresentation
                == Hex.decode("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        #expect(
            bob.publicKey.rawRepresentation
                == Hex.decode("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        let shared = Hex.decode("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(try alice.sharedSecret(with: bob.publicKey) == shared)
        #expect(try bob.sharedSecret(with: alice.publicKey) == shared)
    }

    @Test func wrongLengthsAndSmallOrderPointsAreRefused() throws {
        #expect(throws: CryptoError(.invalidKey)) {
            try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: CryptoError(.invalidKey)) {
            try X25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33))
        }
        let key = try X25519PrivateKey()
        // u = 0 and u = 1 are points of small order (RFC 7748 §6.1).
        for u: UInt8 in [0, 1] {
            let point = try X25519PublicKey(rawRepresentation: [u] + [UInt8](repeating: 0, count: 31))
            #expect(throws: CryptoError(.invalidKey)) { try key.sharedSecret(with: point) }
        }
        #expect("\(key)" == "X25519PrivateKey(<redacted>)")
    }
}
