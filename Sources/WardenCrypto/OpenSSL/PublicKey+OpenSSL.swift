#if WARDEN_OPENSSL
    import COpenSSL
    import Foundation

    /// An owned `EVP_PKEY`.
    ///
    /// Thread-safety: the key is never mutated after construction, and OpenSSL allows concurrent verification with
    /// one `EVP_PKEY` (each call makes its own `EVP_MD_CTX`/`EVP_PKEY_CTX`); hence `@unchecked Sendable`.
    final class OpenSSLKey: @unchecked Sendable {
        let pointer: OpaquePointer
        /// Initialised verification contexts per (hash, padding), copied for each call: `EVP_DigestVerifyInit` fetches
        /// the signature implementation from the provider every time, which costs more than the copy. Guarded by
        /// `lock`; the templates themselves are only read (copied) after creation.
        private var templates: [String: OpaquePointer] = [:]
        private let lock = NSLock()

        init(taking pointer: OpaquePointer) { self.pointer = pointer }

        deinit {
            for template in templates.values { EVP_MD_CTX_free(template) }
            EVP_PKEY_free(pointer)
        }

        /// A fresh `EVP_MD_CTX` ready for `EVP_DigestVerify`, or nil. The caller frees it.
        func verifyContext(for hash: HashFunction?, configure: ((OpaquePointer) -> Bool)?, tag: String = "")
            -> OpaquePointer?
        {
            let cacheKey = (hash?.rawValue ?? "none") + (configure == nil ? "" : "+padding") + tag
            lock.lock()
            defer { lock.unlock() }
            if templates[cacheKey] == nil {
                guard let template = EVP_MD_CTX_new() else { return nil }
                var keyContext: OpaquePointer?
                guard EVP_DigestVerifyInit(template, &keyContext, hash.map(OpenSSL.digest), nil, pointer) == 1,
                    configure.map({ configure in keyContext.map(configure) ?? false }) ?? true
                else {
                    EVP_MD_CTX_free(template)
                    return nil
                }
                templates[cacheKey] = template
            }
            guard let context = EVP_MD_CTX_new() else { return nil }
            guard EVP_MD_CTX_copy_ex(context, templates[cacheKey]) == 1 else {
                EVP_MD_CTX_free(context)
                return nil
            }
            return context
        }
    }

    /// The OpenSSL backing of ``PublicKey``.
    struct PublicKeyBacking: Sendable {
        let key: OpenSSLKey

        static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            guard let n = OpenSSL.bignum(modulus), let e = OpenSSL.bignum(exponent) else {
                throw CryptoError(.backendFailure, "BN_bin2bn failed")
            }
            defer {
                BN_free(n)
                BN_free(e)
            }
            return try fromData(type: "RSA") { builder in
                OSSL_PARAM_BLD_push_BN(builder, warden_param_n, n) == 1
                    && OSSL_PARAM_BLD_push_BN(builder, warden_param_e, e) == 1
            }
        }

        static func ec(curve: EllipticCurve, uncompressedPoint: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            // The group name and the point must outlive OSSL_PARAM_BLD_to_param (inside fromData): the builder keeps
            // pointers, so an implicitly bridged temporary C string would dangle.
            let made: Result<PublicKeyBacking, CryptoError> = groupName(curve).withCString { group in
                uncompressedPoint.withUnsafeBufferPointer { point in
                    Result { () throws(CryptoError) in
                        try fromData(type: "EC") { builder in
                            OSSL_PARAM_BLD_push_utf8_string(builder, warden_param_group, group, 0) == 1
                                && OSSL_PARAM_BLD_push_octet_string(
                                    builder, warden_param_pub, point.baseAddress, point.count) == 1
                        }
                    }
                }
            }
            let backing = try made.get()
            try backing.checkPublicKey()
            return backing
        }

        static func ed25519(_ raw: [UInt8]) throws(CryptoError) -> PublicKeyBacking {
            guard
                let key = raw.withUnsafeBufferPointer({
                    EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, $0.baseAddress, $0.count)
                })
            else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "not an Ed25519 public key")
            }
            return PublicKeyBacking(key: OpenSSLKey(taking: key))
        }

        static func fromSPKI(_ der: [UInt8]) throws(CryptoError) -> (PublicKey.Kind, PublicKeyBacking) {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                let key = d2i_PUBKEY(nil, &cursor, buffer.count)
                if let key, cursor != buffer.baseAddress! + buffer.count {  // trailing bytes
                    EVP_PKEY_free(key)
                    return nil
                }
                return key
            }
            guard let parsed else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "not a DER SubjectPublicKeyInfo")
            }
            let backing = PublicKeyBacking(key: OpenSSLKey(taking: parsed))
            return (try backing.kindAfterValidation(), backing)
        }

        /// Reads the key's type and validates it exactly as the parameter initialisers do.
        func kindAfterValidation() throws(CryptoError) -> PublicKey.Kind {
            switch EVP_PKEY_get_base_id(key.pointer) {
            case EVP_PKEY_RSA:
                let modulus = try bignumParameter("n")
                let exponent = try bignumParameter("e")
                return .rsa(modulusBits: try PublicKey.validateRSA(modulus: modulus, exponent: exponent))
            case EVP_PKEY_EC:
                var name = [CChar](repeating: 0, count: 64)
                var length = 0
                guard EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) == 1 else {
                    OpenSSL.drainErrors()
                    throw CryptoError(.unsupportedKey, "EC key without a named curve")
                }
                let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard let curve = EllipticCurve.allCases.first(where: { Self.groupName($0) == group }) else {
                    throw CryptoError(.unsupportedKey, "unsupported curve \(group)")
                }
                try checkPublicKey()
                return .ec(curve)
            case EVP_PKEY_ED25519:
                return .ed25519
            default:
                throw CryptoError(.unsupportedKey, "unsupported public key type")
            }
        }

        var spkiDER: [UInt8] {
            guard let der = OpenSSL.encode({ i2d_PUBKEY(key.pointer, $0) }) else {
                preconditionFailure("i2d_PUBKEY failed on a valid key")
            }
            return der
        }

        func verify(_ signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, algorithm: SignatureAlgorithm)
            -> Bool
        {
            switch algorithm {
            case .ecdsa(let hash):
                guard let der = Self.derSignature(fromRaw: signature) else { return false }
                return der.withUnsafeBytes { digestVerify($0, message: message, hash: hash, configure: nil) }
            case .rsaPKCS1v15(let hash):
                return digestVerify(signature, message: message, hash: hash, tag: "pkcs1") { warden_set_pkcs1($0) == 1 }
            case .rsaPSS(let hash):
                return digestVerify(signature, message: message, hash: hash, tag: "pss") {
                    warden_set_pss($0, OpenSSL.digest(hash)) == 1
                }
            case .ed25519:
                return digestVerify(signature, message: message, hash: nil, configure: nil)
            }
        }

        /// ECDSA with a DER signature already checked by ``ECDSASignature/raw(fromDER:curve:)``.
        func verifyECDSA(der: [UInt8], raw: [UInt8], message: [UInt8], hash: HashFunction) -> Bool {
            der.withUnsafeBytes { signature in
                message.withUnsafeBytes { digestVerify(signature, message: $0, hash: hash, configure: nil) }
            }
        }

        // MARK: - Helpers

        private func digestVerify(
            _ signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer, hash: HashFunction?,
            tag: String = "", configure: ((OpaquePointer) -> Bool)?
        ) -> Bool {
            defer { OpenSSL.drainErrors() }
            guard let context = key.verifyContext(for: hash, configure: configure, tag: tag) else { return false }
            defer { EVP_MD_CTX_free(context) }
            return EVP_DigestVerify(
                context, signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count,
                message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
        }

        /// DER `ECDSA-Sig-Value` from a raw `r||s` (already shape-checked by ``ECDSAScalars``).
        private static func derSignature(fromRaw raw: UnsafeRawBufferPointer) -> [UInt8]? {
            let half = raw.count / 2
            let bytes = Array(raw)
            guard let signature = ECDSA_SIG_new() else { return nil }
            defer { ECDSA_SIG_free(signature) }
            guard let r = OpenSSL.bignum(Array(bytes[..<half])) else { return nil }
            guard let s = OpenSSL.bignum(Array(bytes[half...])) else {
                BN_free(r)
                return nil
            }
            guard ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            return OpenSSL.encode { i2d_ECDSA_SIG(signature, $0) }
        }

        private func bignumParameter(_ name: String) throws(CryptoError) -> [UInt8] {
            var value: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key.pointer, name, &value) == 1, let value else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "RSA key without \(name)")
            }
            defer { BN_free(value) }
            return OpenSSL.bytes(of: value)
        }

        /// Full public-key validation (point on the curve, not at infinity, right order).
        private func checkPublicKey() throws(CryptoError) {
            guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
                throw CryptoError(.backendFailure, "EVP_PKEY_CTX_new_from_pkey failed")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_public_check(context) == 1 else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "the EC point is not a valid public key on its curve")
            }
        }

        static func groupName(_ curve: EllipticCurve) -> String {
            switch curve {
            case .p256: "prime256v1"
            case .p384: "secp384r1"
            case .p521: "secp521r1"
            }
        }

        private static func fromData(type: String, _ push: (OpaquePointer) -> Bool) throws(CryptoError)
            -> PublicKeyBacking
        {
            guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError(.backendFailure, "OSSL_PARAM_BLD_new") }
            defer { OSSL_PARAM_BLD_free(builder) }
            // OSSL_PARAM_BLD keeps pointers to the pushed values: they must stay alive until to_param below, which is
            // why the caller owns the BIGNUMs/buffers for the whole call.
            guard push(builder), let params = OSSL_PARAM_BLD_to_param(builder) else {
                OpenSSL.drainErrors()
                throw CryptoError(.invalidKey, "invalid \(type) key parameters")
            }
            defer { OSSL_PARAM_free(params) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
                throw CryptoError(.backendFailure, "EVP_PKEY_CTX_new_from_name(\(type)) failed")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata_init(context) == 1,
                EVP_PKEY_fromdata(context, &key, warden_evp_pkey_public_key_selection(), params) == 1, let key
            else {
                throw CryptoError(.invalidKey, "invalid \(type) public key (\(OpenSSL.lastError()))")
            }
            return PublicKeyBacking(key: OpenSSLKey(taking: key))
        }
    }
#endif
