import Testing
import WardenCore
import WardenTestSupport

@testable import WardenPasskeys

@Suite("Strict CBOR (RFC 8949 Appendix A examples)")
struct CBORTests {
    @Test(arguments: [
        ("00", CBORValue.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1864", .unsigned(100)),
        ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(-1)), ("29", .negative(-10)),
        ("3863", .negative(-100)),
        ("3903e7", .negative(-1000)), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("40", .bytes([])),
        ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")),
        ("62c3bc", .text("ü")), ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
        ),
        ("a0", .map([])),
        (
            "a201020304",
            .map([
                CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),
                CBORMapEntry(key: .unsigned(3), value: .unsigned(4)),
            ])
        ),
        (
            "a26161016162820203",
            .map([
                CBORMapEntry(key: .text("a"), value: .unsigned(1)),
                CBORMapEntry(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)])),
            ])
        ),
    ])
    func decodesRFCExamples(hex: String, expected: CBORValue) throws {
        #expect(try CBORDecoder().decode(Hex.decode(hex)) == expected)
    }

    @Test(arguments: [
        ("9f0102ff", "indefinite array"), ("5f42010243030405ff", "indefinite bytes"), ("f90000", "half float"),
        ("fb3ff199999999999a", "double"), ("f7", "undefined"), ("c074323031332d30332d32315432303a30343a30305a", "tag"),
        ("1817", "non-minimal 1-byte"), ("190017", "non-minimal 2-byte"), ("1a00000017", "non-minimal 4-byte"),
        ("a201020103", "duplicate key"), ("a203040102", "non-canonical key order"),
        ("a2616201616102", "text keys out of order"),
        ("1a0001", "truncated integer"), ("4401", "truncated bytes"), ("62c3", "truncated text"),
        ("62c328", "invalid UTF-8"),
        ("0000", "trailing bytes"), ("", "empty"), ("1c", "reserved additional info"),
        ("3bffffffffffffffff", "negative out of range"),
        ("9bffffffffffffffff", "absurd array length"), ("bbffffffffffffffff", "absurd map length"),
    ])
    func rejects(hex: String, name: String) {
        #expect(throws: CBORError.self, "\(name)") { try CBORDecoder().decode(Hex.decode(hex)) }
    }

    /// A CBOR refusal is a Warden error: one code, rejected, located at the byte where decoding stopped.
    @Test func aRefusalIsAWardenErrorAtItsOffset() {
        // RFC 8949 §3.1: 0x1c is a reserved additional-information value, at byte 2 of this input.
        let error = #expect(throws: CBORError.self) { try CBORDecoder().decode([0x82, 0x01, 0x1C]) }
        let any: (any WardenError)? = error
        #expect(any?.codeName == "malformed_cbor")
        #expect(any?.failureKind == .rejected)
        #expect(error?.offset == 2 && any?.location == "byte 2")
    }

    @Test func depthAndSizeCaps() {
        let deep = [UInt8](repeating: 0x81, count: 100) + [0x00]
        #expect(throws: CBORError.self) { try CBORDecoder().decode(deep) }
        #expect(throws: CBORError.self) { try CBORDecoder(maximumBytes: 8).decode([UInt8](repeating: 0, count: 9)) }
        let manyItems = [0x99, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 65_535)
        #expect(throws: CBORError.self) { try CBORDecoder(maximumItems: 1000).decode(manyItems) }
    }

    @Test func prefixDecodingReportsConsumedBytes() throws {
        let (value, used) = try CBORDecoder().decodePrefix(Hex.decode("a10102") + [0xAA, 0xBB])
        #expect(used == 3 && value[1] == .unsigned(2))
    }
}
