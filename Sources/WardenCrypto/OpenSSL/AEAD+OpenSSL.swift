#if WARDEN_OPENSSL
    import COpenSSL

    /// AES-256-GCM and ChaCha20-Poly1305 through `EVP_CIPHER`, HKDF through `EVP_KDF`, X25519 through `EVP_PKEY`.
    /// Lengths were checked by the portable callers; these only call OpenSSL and report failure as nil.
    enum AEADBackend {
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

        static func seal(
            _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], plaintext: UnsafeRawBufferPointer,
            aad: UnsafeRawBufferPointer
        ) -> (ciphertext: [UInt8], tag: [UInt8])? {
            guard let context = EVP_CIPHER_CTX_new() else { return nil }
            defer {
                EVP_CIPHER_CTX_free(context)
                OpenSSL.drainErrors()
            }
            var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
            var tag = [UInt8](repeating: 0, count: AEADAlgorithm.tagByteCount)
            var length: Int32 = 0
            guard EVP_EncryptInit_ex2(context, ciphers[algorithm]!.pointer, key, nonce, nil) == 1 else { return nil }
            if aad.count > 0 {
                guard
                    EVP_EncryptUpdate(
                        context, nil, &length, aad.bindMemory(to: UInt8.self).baseAddress, Int32(aad.count))
                        == 1
                else { return nil }
            }
            var written: Int32 = 0
            if plaintext.count > 0 {
                let ok = ciphertext.withUnsafeMutableBufferPointer {
                    EVP_EncryptUpdate(
                        context, $0.baseAddress, &written, plaintext.bindMemory(to: UInt8.self).baseAddress,
                        Int32(plaintext.count))
                }
                guard ok == 1 else { return nil }
            }
            var final: Int32 = 0
            let finished = ciphertext.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) } ?? nil, &final)
            }
            guard finished == 1, Int(written + final) == plaintext.count else { return nil }
            let tagged = tag.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(AEADAlgorithm.tagByteCount), $0.baseAddress)
            }
            guard tagged == 1 else { return nil }
            return (ciphertext, tag)
        }

        static func open(
            _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8],
            aad: UnsafeRawBufferPointer
        ) -> [UInt8]? {
            guard let context = EVP_CIPHER_CTX_new() else { return nil }
            defer {
                EVP_CIPHER_CTX_free(context)
                OpenSSL.drainErrors()
            }
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
            var length: Int32 = 0
            guard EVP_DecryptInit_ex2(context, ciphers[algorithm]!.pointer, key, nonce, nil) == 1 else { return nil }
            if aad.count > 0 {
                guard
                    EVP_DecryptUpdate(
                        context, nil, &length, aad.bindMemory(to: UInt8.self).baseAddress, Int32(aad.count))
                        == 1
                else { return nil }
            }
            var written: Int32 = 0
            if ciphertext.count > 0 {
                let ok = plaintext.withUnsafeMutableBufferPointer {
                    EVP_DecryptUpdate(context, $0.baseAddress, &written, ciphertext, Int32(ciphertext.count))
                }
                guard ok == 1 else { return nil }
            }
            var expected = tag
            let tagSet = expected.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(AEADAlgorithm.tagByteCount), $0.baseAddress)
            }
            guard tagSet == 1 else { return nil }
            var final: Int32 = 0
            // The tag is checked here; on failure the plaintext written so far is wiped, never returned.
            let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) } ?? nil, &final)
            }
            guard verified == 1, Int(written + final) == ciphertext.count else {
                for index in plaintext.indices { plaintext[index] = 0 }
                return nil
            }
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

    enum X25519Backend {
        static func publicKey(privateKey: [UInt8]) -> [UInt8]? {
            guard let key = EVP_PKEY_new_raw_private_key_ex(nil, "X25519", nil, privateKey, privateKey.count) else {
                OpenSSL.drainErrors()
                return nil
            }
            defer { EVP_PKEY_free(key) }
            var output = [UInt8](repeating: 0, count: 32)
            var length = output.count
            guard EVP_PKEY_get_raw_public_key(key, &output, &length) == 1, length == 32 else {
                OpenSSL.drainErrors()
                return nil
            }
            return output
        }

        static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) -> [UInt8]? {
            defer { OpenSSL.drainErrors() }
            guard let mine = EVP_PKEY_new_raw_private_key_ex(nil, "X25519", nil, privateKey, privateKey.count) else {
                return nil
            }
            defer { EVP_PKEY_free(mine) }
            guard let peer = EVP_PKEY_new_raw_public_key_ex(nil, "X25519", nil, publicKey, publicKey.count) else {
                return nil
            }
            defer { EVP_PKEY_free(peer) }
            guard let context = EVP_PKEY_CTX_new_from_pkey(nil, mine, nil) else { return nil }
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
