/// Shape checks on raw `r||s` ECDSA signatures, done before any backend sees them.
enum ECDSAScalars {
    /// The group orders n of the NIST curves (SEC 2 §2.4.2, §2.5.1, §2.6.1), big-endian, field-size bytes.
    static func order(of curve: EllipticCurve) -> [UInt8] {
        switch curve {
        case .p256: hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        case .p384:
            hex("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973")
        case .p521:
            hex(
                "01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFA51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409"
            )
        }
    }

    /// The hash each curve is paired with in JOSE and COSE (ES256, ES384, ES512).
    static func hash(for curve: EllipticCurve) -> HashFunction {
        switch curve {
        case .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    private static let orders: [EllipticCurve: [UInt8]] = Dictionary(
        uniqueKeysWithValues: EllipticCurve.allCases.map { ($0, order(of: $0)) })

    /// Throws unless the signature is exactly 2 × field size with 0 < r, s < n.
    static func check(_ signature: UnsafeRawBufferPointer, curve: EllipticCurve) throws {
        let size = curve.fieldByteCount
        guard signature.count == 2 * size else {
            throw CryptoError(.malformedSignature, "\(curve.rawValue) signatures are \(2 * size) bytes (r||s)")
        }
        let n = orders[curve]!
        for half in [signature[0..<size], signature[size..<(2 * size)]] {
            guard half.contains(where: { $0 != 0 }) else {
                throw CryptoError(.malformedSignature, "ECDSA r or s is zero")
            }
            guard half.lexicographicallyPrecedes(n) else {
                throw CryptoError(.malformedSignature, "ECDSA r or s is not below the group order")
            }
        }
    }

    private static func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = string.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(nibble(high) << 4 | nibble(low)))
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> Int {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        default: Int((c | 0x20) - UInt8(ascii: "a") + 10)
        }
    }
}
