import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenCrypto

/// Regressions for what the fuzz targets found (Fuzz/RESULTS.md), fed the reproducers' inputs.
@Suite("Fuzz findings: keys")
struct KeyFuzzFindingTests {
    static func fixture(_ path: String) throws -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return Array(try Data(contentsOf: root.appendingPathComponent("Fuzz/Crashes/" + path)))
    }

    /// A compressed P-256 point was kept compressed by OpenSSL and then sliced as x || y.
    @Test func aCompressedPointIsRefused() throws {
        let spki = try Self.fixture("FuzzDER/p256-spki-compressed-point")
        #expect(throws: CryptoError(.unsupportedKey)) { try PublicKey(spkiDER: spki) }
    }

    /// OpenSSL accepted an Ed25519 key BIT STRING with an unused bit, which the Apple backend's reader refuses.
    @Test func aKeyBitStringWithUnusedBitsIsRefusedOnBothBackends() throws {
        let spki = try Self.fixture("FuzzDER/ed25519-spki-unused-bits")
        #expect(throws: CryptoError(.invalidKey)) { try PublicKey(spkiDER: spki) }
    }
}
