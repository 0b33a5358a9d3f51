/// The Ed25519 public keys a verifier must refuse: the eight points of small order, with which one fixed signature
/// verifies for every message (a DPoP proof or a passkey assertion made without any private key), and every
/// non-canonical encoding (`y` ≥ p = 2^255 − 19, or `x` = 0 with the sign bit set).
///
/// The small-order points are `y` ∈ {0, 1, p − 1} and the two order-8 `y` values (libsodium's blocklist, and
/// "Taming the many EdDSAs", Chalkias et al. 2020); `x` = 0 for `y` = ±1, so there the sign bit only makes another,
/// non-canonical, encoding. Compared with the sign bit cleared, every one of them is refused in both signs.
enum Ed25519KeyCheck {
    /// Little-endian `y` values (sign bit cleared) of the points of small order.
    static let smallOrderY: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
        ],
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
        ],
    ]

    /// Why `raw` (32 bytes) is refused, or nil for a key that may verify signatures.
    static func refusal(_ raw: [UInt8]) -> String? {
        guard raw.count == 32 else { return "Ed25519 keys are 32 bytes" }
        var y = raw
        y[31] &= 0x7F
        // y ≥ p: bytes 1...30 all 0xFF, the top byte 0x7F and the lowest at least 0xED.
        if y[31] == 0x7F, y[1...30].allSatisfy({ $0 == 0xFF }), y[0] >= 0xED {
            return "a non-canonical Ed25519 key (y is not below 2^255 - 19)"
        }
        if smallOrderY.contains(y) { return "an Ed25519 key of small order (it makes forged signatures verify)" }
        return nil
    }
}
