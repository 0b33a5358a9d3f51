#if WARDEN_OPENSSL
    import COpenSSL
    import Foundation

    /// AES-256-GCM and ChaCha20-Poly1305 through `EVP_CIPHER`, HKDF through `EVP_KDF`, X25519 through `EVP_PKEY`.
    /// Lengths were checked by the portable callers; these only call OpenSSL and report failure as nil.
    /// A key's cipher contexts, keyed once (the AES key schedule is computed at the first use, not per message) and
    /// reused: each message only sets its nonce (`EVP_*Init_ex2` with a NULL cipher and key keeps the key).
    ///
    /// Thread-safety: a context is used by one call at a time (taken from and returned to the lock-guarded pool).
    final class AEADKeyBacking: @unchecked Sendable {
        /// Ciphers fetched once (see ``OpenSSL/FetchedDigest`` for why sharing them is safe).
        private static let ciphers: [AEADAlgorithm: OpenSSL.FetchedDigest] = {
            var table: [AEADAlgorithm: OpenSSL.FetchedDigest] = [:]
            for (algorithm, name) in [
                (AEADAlgorithm.aes256GCM, "AES-256-GCM"), (.chaCha20Poly1305, "ChaCha20-Poly1305"),
            ] {
                guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else { fatalError("OpenSSL has no \(name)") }
                table[algorithm] = OpenSSL.FetchedDigest(pointer: cipher)
            }
            return table
        }()

        private let algorithm: AEADAlgorithm
        private let key: [UInt8]
        private let lock = NSLock()
        private var sealing: [OpaquePointer] = []
        private var opening: [OpaquePointer] = []

        init(_ algorithm: AEADAlgorithm, key: [UInt8]) {
            self.algorithm = algorithm
            self.key = key
        }

        deinit {
            for context in sealing + opening { EVP_CIPHER_CTX_free(context) }
        }

        /// A context keyed for sealing or opening, from the pool or new (nil when OpenSSL refuses).
        private func take(sealing wantsSealing: Bool) -> OpaquePointer? {
            lock.lock()
            let pooled = wantsSealing ? sealing.popLast() : opening.popLast()
            lock.unlock()
            if let pooled { return pooled }
            guard let cipher = Self.ciphers[algorithm]?.pointer, let context = EVP_CIPHER_CTX_new() else { return nil }
            let keyed =
                wantsSealing
                ? EVP_EncryptInit_ex2(context, cipher, key, nil, nil)
                : EVP_DecryptInit_ex2(context, cipher, key, nil, nil)
            guard keyed == 1 else {
                EVP_CIPHER_CTX_free(context)
                return nil
            }
            return context
        }

        private func give(_ context: OpaquePointer, sealing wantsSealing: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if wantsSealing, sealing.count < 8 {
                sealing.append(context)
            } else if !wantsSealing, opening.count < 8 {
                opening.append(context)
            } else {
                EVP_CIPHER_CTX_free(context)
            }
        }

        func seal(nonce: [UInt8], plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer)
            -> (ciphertext: [UInt8], tag: [UInt8])?
        {
            guard let context = take(sealing: true) else {
                OpenSSL.drainErrors()
                return nil
            }
            var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
            var tag = [UInt8](repeating: 0, count: AEADAlgorithm.tagByteCount)
            var length: Int32 = 0
            var written: Int32 = 0
            var final: Int32 = 0
            let ok =
                EVP_EncryptInit_ex2(context, nil, nil, nonce, nil) == 1
                && (aad.count == 0
                    || EVP_EncryptUpdate(
                        context, nil, &length, aad.bindMemory(to: UInt8.self).baseAddress, Int32(aad.count)) == 1)
                && (plaintext.count == 0
                    || ciphertext.withUnsafeMutableBufferPointer {
                        EVP_EncryptUpdate(
                            context, $0.baseAddress, &written, plaintext.bindMemory(to: UInt8.self).baseAddress,
                            Int32(plaintext.count))
                    } == 1)
                && ciphertext.withUnsafeMutableBufferPointer { buffer in
                    EVP_EncryptFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) } ?? nil, &final)
                } == 1
                && Int(written + final) == plaintext.count
                && tag.withUnsafeMutableBytes {
                    EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_AEAD_GET_TAG, Int32(AEADAlgorithm.tagByteCount), $0.baseAddress)
                } == 1
            guard ok else {
                EVP_CIPHER_CTX_free(context)
                OpenSSL.drainErrors()
                return nil
            }
            give(context, sealing: true)
            return (ciphertext, tag)
        }

        func open(nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: UnsafeRawBufferPointer) -> [UInt8]? {
            guard let context = take(sealing: false) else {
                OpenSSL.drainErrors()
                return nil
            }
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
            var length: Int32 = 0
            var written: Int32 = 0
            var final: Int32 = 0
            var expected = tag
            let ready =
                EVP_DecryptInit_ex2(context, nil, nil, nonce, nil) == 1
                && (aad.count == 0
                    || EVP_DecryptUpdate(
                        context, nil, &length, aad.bindMemory(to: UInt8.self).baseAddress, Int32(aad.count)) == 1)
                && (ciphertext.count == 0
                    || plaintext.withUnsafeMutableBufferPointer {
                        EVP_DecryptUpdate(context, $0.baseAddress, &written, ciphertext, Int32(ciphertext.count))
                    } == 1)
                && expected.withUnsafeMutableBytes {
                    EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_AEAD_SET_TAG, Int32(AEADAlgorithm.tagByteCount), $0.baseAddress)
                } == 1
            guard ready else {
                EVP_CIPHER_CTX_free(context)
                OpenSSL.drainErrors()
                return nil
            }
            // The tag is checked here; on failure the plaintext written so far is wiped, never returned.
            let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) } ?? nil, &final)
            }
            guard verified == 1, Int(written + final) == ciphertext.count else {
                EVP_CIPHER_CTX_free(context)
                OpenSSL.drainErrors()
                for index in plaintext.indices { plaintext[index] = 0 }
                return nil
            }
            give(context, sealing: false)
            return plaintext
        }
    }

    enum HKDFBackend {
        private static let kdf: OpenSSL.FetchedDigest = {
            guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { fatalError("OpenSSL has no HKDF") }
            return OpenSSL.FetchedDigest(pointer: kdf)
        }()

        static func derive(
            _ hash: HashFunction, ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
            info: UnsafeRawBufferPointer, byteCount: Int
        ) -> [UInt8]? {
            guard let context = EVP_KDF_CTX_new(kdf.pointer) else { return nil }
            defer {
                EVP_KDF_CTX_free(context)
                OpenSSL.drainErrors()
            }
            // OpenSSL refuses an empty key; HKDF-Extract with an empty IKM is HMAC(salt, ""), which is what an empty
            // octet string means, so a one-byte buffer of length zero stands in for the pointer.
            var placeholder: UInt8 = 0
            var output = [UInt8](repeating: 0, count: byteCount)
            let ok: Int32 = OpenSSL.digestName(hash).withCString { name in
                withUnsafeMutablePointer(to: &placeholder) { placeholder in
                    // The parameter keeps the name's pointer: a static string's bytes, never a bridged temporary.
                    func octets(_ key: StaticString, _ buffer: UnsafeRawBufferPointer) -> OSSL_PARAM {
                        OSSL_PARAM_construct_octet_string(
                            UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self),
                            UnsafeMutableRawPointer(mutating: buffer.baseAddress)
                                ?? UnsafeMutableRawPointer(placeholder),
                            buffer.count)
                    }
                    var params = [
                        OSSL_PARAM_construct_utf8_string("digest", UnsafeMutablePointer(mutating: name), 0),
                        octets("key", ikm), octets("salt", salt), octets("info", info), OSSL_PARAM_construct_end(),
                    ]
                    return output.withUnsafeMutableBufferPointer {
                        EVP_KDF_derive(context, $0.baseAddress, byteCount, &params)
                    }
                }
            }
            return ok == 1 ? output : nil
        }
    }

    /// An X25519 private key as an `EVP_PKEY`, made once (making it computes the public key, a scalar
    /// multiplication). Thread-safety: OpenSSL documents a key used for derivation as safe to share for reading.
    final class X25519KeyBacking: @unchecked Sendable {
        private let key: OpaquePointer
        let publicKey: [UInt8]

        init?(privateKey: [UInt8]) {
            defer { OpenSSL.drainErrors() }
            guard let key = EVP_PKEY_new_raw_private_key_ex(nil, "X25519", nil, privateKey, privateKey.count) else {
                return nil
            }
            var output = [UInt8](repeating: 0, count: 32)
            var length = output.count
            guard EVP_PKEY_get_raw_public_key(key, &output, &length) == 1, length == 32 else {
                EVP_PKEY_free(key)
                return nil
            }
            self.key = key
            publicKey = output
        }

        deinit { EVP_PKEY_free(key) }

        func sharedSecret(with publicKey: [UInt8]) -> [UInt8]? {
            defer { OpenSSL.drainErrors() }
            guard let peer = EVP_PKEY_new_raw_public_key_ex(nil, "X25519", nil, publicKey, publicKey.count) else {
                return nil
            }
            defer { EVP_PKEY_free(peer) }
            guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            var output = [UInt8](repeating: 0, count: 32)
            var length = output.count
            // OpenSSL itself fails the derivation when the result is all zeros (a small-order peer).
            guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1,
                EVP_PKEY_derive(context, &output, &length) == 1, length == 32
            else { return nil }
            return output
        }
    }
#endif
