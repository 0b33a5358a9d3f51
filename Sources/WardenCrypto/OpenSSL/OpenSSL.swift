#if WARDEN_OPENSSL
    import COpenSSL

    /// Shared OpenSSL plumbing: algorithms fetched once, the error queue drained after every call.
    enum OpenSSL {
        /// A fetched `EVP_MD`. Fetched algorithm objects are immutable and reference-counted; OpenSSL documents them
        /// as safe to share between threads, hence `@unchecked Sendable`.
        struct FetchedDigest: @unchecked Sendable {
            let pointer: OpaquePointer
        }

        /// Digests fetched once at first use (`EVP_MD_fetch` per call costs a provider lookup).
        static let digests: [HashFunction: FetchedDigest] = {
            var table: [HashFunction: FetchedDigest] = [:]
            for (hash, name) in [
                (HashFunction.sha1, "SHA1"), (.sha256, "SHA256"), (.sha384, "SHA384"), (.sha512, "SHA512"),
            ] {
                guard let md = EVP_MD_fetch(nil, name, nil) else { fatalError("OpenSSL has no \(name) digest") }
                table[hash] = FetchedDigest(pointer: md)
            }
            return table
        }()

        static func digest(_ hash: HashFunction) -> OpaquePointer { digests[hash]!.pointer }

        static func digestName(_ hash: HashFunction) -> String {
            switch hash {
            case .sha1: "SHA1"
            case .sha256: "SHA256"
            case .sha384: "SHA384"
            case .sha512: "SHA512"
            }
        }

        /// Clears OpenSSL's thread-local error queue so that one failure never leaks into the next call.
        static func drainErrors() { ERR_clear_error() }

        /// The most recent OpenSSL error as text (for developer-facing reasons; never contains key material).
        static func lastError() -> String {
            let code = ERR_get_error()
            defer { ERR_clear_error() }
            guard code != 0 else { return "unknown OpenSSL error" }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// A BIGNUM from big-endian bytes; the caller frees it.
        static func bignum(_ bytes: [UInt8]) -> OpaquePointer? {
            bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        }

        /// The big-endian bytes of a BIGNUM.
        static func bytes(of bignum: OpaquePointer) -> [UInt8] {
            let count = (Int(BN_num_bits(bignum)) + 7) / 8
            var output = [UInt8](repeating: 0, count: count)
            _ = output.withUnsafeMutableBufferPointer { BN_bn2bin(bignum, $0.baseAddress) }
            return output
        }

        /// Calls an `i2d_*` function twice (length, then bytes).
        static func encode(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
            let length = body(nil)
            guard length > 0 else { return nil }
            var output = [UInt8](repeating: 0, count: Int(length))
            let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return body(&cursor)
            }
            return written == length ? output : nil
        }
    }

    enum DigestBackend {
        static func hash(_ hash: HashFunction, _ data: UnsafeRawBufferPointer) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: hash.byteCount)
            var length: UInt32 = 0
            let ok = output.withUnsafeMutableBufferPointer {
                EVP_Digest(data.baseAddress, data.count, $0.baseAddress, &length, OpenSSL.digest(hash), nil)
            }
            precondition(ok == 1 && Int(length) == hash.byteCount, "EVP_Digest failed")
            return output
        }
    }

    enum HMACBackend {
        /// `EVP_MAC` "HMAC", fetched once; see ``OpenSSL/FetchedDigest`` for why sharing is safe.
        private struct FetchedMAC: @unchecked Sendable { let pointer: OpaquePointer }
        static var fetched: OpaquePointer { mac.pointer }
        private static let mac: FetchedMAC = {
            guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { fatalError("OpenSSL has no HMAC") }
            return FetchedMAC(pointer: mac)
        }()

        static func mac(_ hash: HashFunction, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> [UInt8] {
            guard let context = EVP_MAC_CTX_new(mac.pointer) else { fatalError("EVP_MAC_CTX_new failed") }
            defer { EVP_MAC_CTX_free(context) }
            var output = [UInt8](repeating: 0, count: hash.byteCount)
            var length = 0
            // An empty key still needs a non-NULL pointer: NULL means "keep the previous key" to EVP_MAC_init.
            let placeholder: [UInt8] = [0]
            let ok: Bool = placeholder.withUnsafeBufferPointer { placeholder in
                OpenSSL.digestName(hash).withCString { name in
                    var params = [
                        OSSL_PARAM_construct_utf8_string("digest", UnsafeMutablePointer(mutating: name), 0),
                        OSSL_PARAM_construct_end(),
                    ]
                    let keyPointer = key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? placeholder.baseAddress
                    guard EVP_MAC_init(context, keyPointer, key.count, &params) == 1,
                        EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count)
                            == 1
                    else { return false }
                    return output.withUnsafeMutableBufferPointer {
                        EVP_MAC_final(context, $0.baseAddress, &length, $0.count) == 1
                    }
                }
            }
            precondition(ok && length == hash.byteCount, "HMAC failed: \(OpenSSL.lastError())")
            return output
        }
    }

    enum RandomBackend {
        /// The kernel's CSPRNG (getrandom(2)), as Go, Rust's `getrandom` and BoringSSL use; OpenSSL's `RAND_bytes`
        /// only where the call fails (a kernel without it). RAND_bytes costs about 1.5 µs a call on OpenSSL 3.0 —
        /// more than sealing a kilobyte — and a random nonce is drawn per message.
        static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            guard let base = buffer.baseAddress else { return true }
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            if warden_getrandom(bytes, buffer.count) == 1 { return true }
            let ok = RAND_bytes(bytes, Int32(buffer.count)) == 1
            if !ok { OpenSSL.drainErrors() }
            return ok
        }
    }
#endif

#if WARDEN_OPENSSL
    import Foundation

    /// A keyed `EVP_MAC_CTX` template, duplicated per tag (the duplicate carries the keyed hash states).
    ///
    /// Thread-safety: the template is never used directly after construction, only copied with `EVP_MAC_CTX_dup`,
    /// which reads it; hence `@unchecked Sendable`.
    final class HMACKeyBacking: @unchecked Sendable {
        private let template: OpaquePointer
        private let hash: HashFunction

        init(hash: HashFunction, key: UnsafeRawBufferPointer) {
            self.hash = hash
            guard let context = EVP_MAC_CTX_new(HMACBackend.fetched) else { fatalError("EVP_MAC_CTX_new failed") }
            let placeholder: [UInt8] = [0]
            let ok = placeholder.withUnsafeBufferPointer { placeholder in
                OpenSSL.digestName(hash).withCString { name in
                    var params = [
                        OSSL_PARAM_construct_utf8_string("digest", UnsafeMutablePointer(mutating: name), 0),
                        OSSL_PARAM_construct_end(),
                    ]
                    let keyPointer = key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? placeholder.baseAddress
                    return EVP_MAC_init(context, keyPointer, key.count, &params) == 1
                }
            }
            precondition(ok, "HMAC key setup failed: \(OpenSSL.lastError())")
            template = context
        }

        deinit {
            for context in pool { EVP_MAC_CTX_free(context) }
            EVP_MAC_CTX_free(template)
        }

        /// Idle keyed contexts. `EVP_MAC_init` with a NULL key resets a context to its keyed state, so contexts are
        /// reused instead of duplicated per call (duplication allocates three digest states). Guarded by `lock`.
        private var pool: [OpaquePointer] = []
        private let lock = NSLock()

        func mac(_ message: UnsafeRawBufferPointer) -> [UInt8] {
            lock.lock()
            let pooled = pool.popLast()
            lock.unlock()
            guard let context = pooled ?? EVP_MAC_CTX_dup(template) else { fatalError("EVP_MAC_CTX_dup failed") }
            var output = [UInt8](repeating: 0, count: hash.byteCount)
            var length = 0
            let ok =
                EVP_MAC_init(context, nil, 0, nil) == 1
                && EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
                && output.withUnsafeMutableBufferPointer { EVP_MAC_final(context, $0.baseAddress, &length, $0.count) }
                    == 1
            precondition(ok && length == hash.byteCount, "HMAC failed: \(OpenSSL.lastError())")
            lock.lock()
            if pool.count < 8 { pool.append(context) } else { EVP_MAC_CTX_free(context) }
            lock.unlock()
            return output
        }
    }
#endif
