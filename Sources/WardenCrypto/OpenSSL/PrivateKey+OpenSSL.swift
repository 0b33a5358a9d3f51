#if WARDEN_OPENSSL
    import COpenSSL

    /// The OpenSSL backing of the private key types. Same thread-safety argument as ``OpenSSLKey``.
    struct PrivateKeyBacking: Sendable {
        let key: OpenSSLKey
        let publicKey: PublicKey

        init(taking pointer: OpaquePointer) throws(CryptoError) {
            key = OpenSSLKey(taking: pointer)
            guard let der = OpenSSL.encode({ i2d_PUBKEY(pointer, $0) }) else {
                throw CryptoError(.invalidKey, "cannot derive the public key")
            }
            let (kind, backing) = try PublicKeyBacking.fromSPKI(der)
            publicKey = PublicKey(kind: kind, backing: backing)
        }

        static func fromPEM(_ pem: String) throws(CryptoError) -> PrivateKeyBacking {
            guard pem.utf8.count <= PublicKey.maximumInputBytes else {
                throw CryptoError(.inputTooLarge, "PEM input over 1 MiB")
            }
            // The portable reader decides what is accepted (the Apple backend uses the same one); OpenSSL only
            // loads the normalised PKCS#8 it produces.
            let normalised = try PrivateKeyMaterial.parse(pem: pem).pkcs8PEM
            let key: OpaquePointer? = normalised.withCString { text in
                guard let bio = BIO_new_mem_buf(text, Int32(strlen(text))) else { return nil }
                defer { BIO_free(bio) }
                // A password callback that refuses: the default one would prompt on the terminal.
                return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
            }
            guard let key else {
                OpenSSL.drainErrors()
                throw CryptoError(.malformedInput, "not a PEM private key")
            }
            return try PrivateKeyBacking(taking: key)
        }

        static func generateRSA(bits: Int) throws(CryptoError) -> PrivateKeyBacking {
            try generate(type: "RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) == 1 }
        }

        static func generateEC(_ curve: EllipticCurve) throws(CryptoError) -> PrivateKeyBacking {
            try generate(type: "EC") { EVP_PKEY_CTX_set_group_name($0, PublicKeyBacking.groupName(curve)) == 1 }
        }

        static func generateEd25519(seed: [UInt8]?) throws(CryptoError) -> PrivateKeyBacking {
            guard let seed else { return try generate(type: "ED25519") { _ in true } }
            guard
                let key = seed.withUnsafeBufferPointer({
                    EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, $0.baseAddress, $0.count)
                })
            else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "not an Ed25519 seed")
            }
            return try PrivateKeyBacking(taking: key)
        }

        private static func generate(type: String, _ configure: (OpaquePointer) -> Bool) throws(CryptoError)
            -> PrivateKeyBacking
        {
            guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
                throw CryptoError(.backendFailure, "no \(type) key generator")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, configure(context), EVP_PKEY_generate(context, &key) == 1, let key
            else {
                OpenSSL.drainErrors()
                throw CryptoError(.randomUnavailable, "\(type) key generation failed")
            }
            return try PrivateKeyBacking(taking: key)
        }

        func sign(_ message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm) throws(CryptoError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw CryptoError(.backendFailure, "EVP_MD_CTX_new failed") }
            defer {
                EVP_MD_CTX_free(context)
                OpenSSL.drainErrors()
            }
            var keyContext: OpaquePointer?
            let hash: HashFunction? =
                switch algorithm {
                case .rsaPKCS1v15(let hash), .rsaPSS(let hash), .ecdsa(let hash): hash
                case .ed25519: nil
                }
            guard EVP_DigestSignInit(context, &keyContext, hash.map(OpenSSL.digest), nil, key.pointer) == 1 else {
                throw CryptoError(.backendFailure, "EVP_DigestSignInit failed")
            }
            switch algorithm {
            case .rsaPKCS1v15: guard let keyContext, warden_set_pkcs1(keyContext) == 1 else { throw Self.failure() }
            case .rsaPSS(let hash):
                guard let keyContext, warden_set_pss(keyContext, OpenSSL.digest(hash)) == 1 else {
                    throw Self.failure()
                }
            default: break
            }
            let input = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var length = 0
            guard EVP_DigestSign(context, nil, &length, input, message.count) == 1 else { throw Self.failure() }
            var signature = [UInt8](repeating: 0, count: length)
            guard
                signature.withUnsafeMutableBufferPointer({
                    EVP_DigestSign(context, $0.baseAddress, &length, input, message.count)
                }) == 1
            else { throw Self.failure() }
            signature.removeLast(signature.count - length)
            if case .ecdsa = algorithm, case .ec(let curve) = publicKey.kind {
                return try Self.rawSignature(fromDER: signature, size: curve.fieldByteCount)
            }
            return signature
        }

        var pkcs8PEM: String {
            guard let bio = BIO_new(BIO_s_mem()) else { return "" }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else { return "" }
            var pointer: UnsafeMutablePointer<CChar>?
            let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
            guard let pointer, length > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        }

        private static func failure() -> CryptoError {
            CryptoError(.backendFailure, "signing failed: \(OpenSSL.lastError())")
        }

        private static func rawSignature(fromDER der: [UInt8], size: Int) throws(CryptoError) -> [UInt8] {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            }
            guard let parsed else { throw failure() }
            defer { ECDSA_SIG_free(parsed) }
            var output = [UInt8](repeating: 0, count: 2 * size)
            let ok = output.withUnsafeMutableBufferPointer { buffer in
                BN_bn2binpad(ECDSA_SIG_get0_r(parsed), buffer.baseAddress, Int32(size)) == size
                    && BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress! + size, Int32(size)) == size
            }
            guard ok else { throw failure() }
            return output
        }
    }

    /// X.509 parsing for ``CertificatePin``.
    enum CertificateBackend {
        static func spki(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
            let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                let parsed = d2i_X509(nil, &cursor, buffer.count)
                if let parsed, cursor != buffer.baseAddress! + buffer.count {
                    X509_free(parsed)
                    return nil
                }
                return parsed
            }
            guard let certificate else {
                OpenSSL.drainErrors()
                throw CryptoError(.malformedInput, "not a DER X.509 certificate")
            }
            defer { X509_free(certificate) }
            guard let publicKey = X509_get_X509_PUBKEY(certificate),
                let spki = OpenSSL.encode({ i2d_X509_PUBKEY(publicKey, $0) })
            else {
                OpenSSL.drainErrors()
                throw CryptoError(.malformedInput, "the certificate has no readable public key")
            }
            return spki
        }
    }
#endif

#if WARDEN_OPENSSL
    import COpenSSL
    import Foundation

    /// X.509 path validation for ``X509Certificate/verifyChain(_:roots:at:)`` with `X509_verify_cert`.
    enum CertificateChainBackend {
        static func verify(leaf: [UInt8], intermediates: [[UInt8]], roots: [[UInt8]], at date: Date) throws(CryptoError)
        {
            defer { OpenSSL.drainErrors() }
            var owned: [OpaquePointer] = []
            defer { for certificate in owned { X509_free(certificate) } }
            func parse(_ der: [UInt8]) throws(CryptoError) -> OpaquePointer {
                let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                    var cursor = buffer.baseAddress
                    return d2i_X509(nil, &cursor, buffer.count)
                }
                guard let certificate else { throw CryptoError(.malformedInput, "not a DER X.509 certificate") }
                owned.append(certificate)
                return certificate
            }
            let leafCertificate = try parse(leaf)
            guard let store = X509_STORE_new() else { throw CryptoError(.backendFailure, "X509_STORE_new failed") }
            defer { X509_STORE_free(store) }
            for root in roots {
                guard X509_STORE_add_cert(store, try parse(root)) == 1 else {
                    throw CryptoError(.backendFailure, "X509_STORE_add_cert failed")
                }
            }
            guard let untrusted = warden_x509_stack_new() else {
                throw CryptoError(.backendFailure, "sk_X509_new_null failed")
            }
            defer { warden_x509_stack_free(untrusted) }
            for intermediate in intermediates {
                guard warden_x509_stack_push(untrusted, try parse(intermediate)) == 1 else {
                    throw CryptoError(.backendFailure, "sk_X509_push failed")
                }
            }
            guard let context = X509_STORE_CTX_new() else {
                throw CryptoError(.backendFailure, "X509_STORE_CTX_new failed")
            }
            defer { X509_STORE_CTX_free(context) }
            guard X509_STORE_CTX_init(context, store, leafCertificate, untrusted) == 1 else {
                throw CryptoError(.backendFailure, "X509_STORE_CTX_init failed")
            }
            X509_STORE_CTX_set_time(context, 0, time_t(date.timeIntervalSince1970.rounded(.down)))
            guard X509_verify_cert(context) == 1 else {
                let code = X509_STORE_CTX_get_error(context)
                let reason = String(cString: X509_verify_cert_error_string(Int(code)))
                throw CryptoError(.untrustedCertificate, "certificate chain rejected: \(reason)")
            }
        }
    }
#endif
