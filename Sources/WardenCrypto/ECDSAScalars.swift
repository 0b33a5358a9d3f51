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

    private static let orders: [EllipticCurve: [UInt8]] = Dictionary(
        uniqueKeysWithValues: EllipticCurve.allCases.map { ($0, order(of: $0)) })

    /// Throws unless the signature is exactly 2 × field size with 0 < r, s < n.
    static func check(_ signature: UnsafeRawBufferPointer, curve: EllipticCurve) throws(CryptoError) {
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

/// Conversion between the two ECDSA signature encodings.
public enum ECDSASignature {
    /// The raw `r||s` form (each scalar left-padded to the curve's field size) of a DER `ECDSA-Sig-Value`
    /// (RFC 3279 §2.2.3), as WebAuthn and X.509 carry them.
    ///
    /// Strict DER: one SEQUENCE of exactly two minimal, positive INTEGERs that fit the curve, no trailing bytes.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/malformedSignature``.
    public static func raw(fromDER der: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        let size = curve.fieldByteCount
        do {
            let sequence = try DER.single(der)
            let parts = try DER.children(sequence)
            guard sequence.tag == 0x30, parts.count == 2 else { throw invalid("not an ECDSA-Sig-Value") }
            var output: [UInt8] = []
            output.reserveCapacity(2 * size)
            for integer in parts {
                var bytes = integer.contents
                guard integer.tag == 0x02, let first = bytes.first else { throw invalid("r and s are INTEGERs") }
                guard first & 0x80 == 0 else { throw invalid("negative scalar") }
                if first == 0 {
                    guard bytes.count > 1, bytes[bytes.startIndex + 1] & 0x80 != 0 else {
                        throw invalid("non-minimal INTEGER")
                    }
                    bytes = bytes.dropFirst()
                }
                guard bytes.count <= size else { throw invalid("scalar longer than the curve order") }
                output.append(contentsOf: repeatElement(0, count: size - bytes.count))
                output.append(contentsOf: bytes)
            }
            return output
        } catch let error as CryptoError where error.code == .malformedSignature {
            throw error
        } catch {
            throw invalid("not DER")
        }
    }

    private static func invalid(_ reason: String) -> CryptoError {
        CryptoError(.malformedSignature, "ECDSA DER signature: \(reason)")
    }
}

extension ECDSASignature {
    /// The DER `ECDSA-Sig-Value` of a raw `r||s` signature (as WebAuthn authenticators and X.509 write them).
    ///
    /// - Throws: ``CryptoErrorDomain/Code/malformedSignature`` unless `raw` is two equal halves.
    public static func der(fromRaw raw: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !raw.isEmpty, raw.count % 2 == 0 else {
            throw CryptoError(.malformedSignature, "raw ECDSA signatures are r||s of equal length")
        }
        let half = raw.count / 2
        return DER.sequence([DER.integer(Array(raw[..<half])), DER.integer(Array(raw[half...]))])
    }
}
