import Testing
import WardenCore
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenCrypto

/// Ed25519 public keys of small order make one fixed signature verify for every message: a "proof" made without any
/// private key. Every way a key enters (raw bytes, SPKI) refuses them, and every non-canonical encoding.
@Suite("Small-order and non-canonical Ed25519 keys")
struct SmallOrderEd25519Tests {
    /// The eight points of small order (libsodium's blocklist; "Taming the many EdDSAs", Chalkias et al., 2020),
    /// in both sign-bit spellings, and the non-canonical encodings of y = p and y = p + 1 (0 and 1 again).
    static let refused: [String] = [
        "0000000000000000000000000000000000000000000000000000000000000000",  // order 4
        "0000000000000000000000000000000000000000000000000000000000000080",  // order 4, the other x
        "0100000000000000000000000000000000000000000000000000000000000000",  // the identity
        "0100000000000000000000000000000000000000000000000000000000000080",  // the identity, sign bit set
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // order 2 (y = -1)
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  // order 2, sign bit set
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  // order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  // order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  // order 8
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  // order 8
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // y = p: 0, non-canonical
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // y = p + 1: 1, non-canonical
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  // y = 2^255 - 1, non-canonical
    ]

    @Test(arguments: refused) func refusedAsRawAndAsSPKI(_ hex: String) {
        let raw = Hex.decode(hex)
        #expect(throws: CryptoError(.invalidKey)) { try PublicKey(ed25519: raw) }
        #expect(throws: CryptoError(.invalidKey)) { try PublicKey(spkiDER: DER.ed25519SPKI(raw)) }
    }

    /// With the identity as the key, (R = identity, S = 0) satisfies [S]B = R + [k]A for every message: the forgery
    /// the refusal prevents. RFC 8032's TEST 1 key is still accepted, and neighbours of the blocked values too.
    @Test func realKeysStillVerify() throws {
        let rfc = Hex.decode("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(throws: Never.self) { try PublicKey(ed25519: rfc) }
        #expect(throws: Never.self) { try PublicKey(spkiDER: DER.ed25519SPKI(rfc)) }
        #expect(
            Ed25519KeyCheck.refusal(Hex.decode("ebffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
                == nil)
        #expect(
            Ed25519KeyCheck.refusal(Hex.decode("0200000000000000000000000000000000000000000000000000000000000000"))
                == nil)
        #expect(Ed25519KeyCheck.refusal([1, 2, 3]) != nil)
    }
}
