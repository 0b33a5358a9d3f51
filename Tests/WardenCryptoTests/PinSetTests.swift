import Foundation
import Testing
import WardenCrypto

@Suite("PinSet policy")
struct PinSetTests {
    static let pins = (try? CertificatePinTests.recordedPins()) ?? []
    static let der = (try? CertificatePinTests.fixture("p256.der")) ?? []
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func matchesAnyCertificateOfTheChain() throws {
        let set = try PinSet(pins: [Self.pins[1], Self.pins[0]], expires: Self.now.addingTimeInterval(86_400))
        #expect(try set.evaluate(certificates: [Self.der], now: Self.now) == .allow)
        let chain = try CertificatePin.pins(fromCertificates: try CertificatePinTests.fixture("chain.pem"))
        #expect(set.evaluate(chain: Array(chain.reversed()), now: Self.now) == .allow)
    }

    @Test func enforcesReportsAndExpires() throws {
        let other = [Self.pins[2], Self.pins[3]]
        let enforce = try PinSet(pins: other, expires: Self.now.addingTimeInterval(86_400))
        let decision = try enforce.evaluate(certificates: [Self.der], now: Self.now)
        #expect(!decision.allowsConnection)
        let report = try PinSet(pins: other, expires: Self.now.addingTimeInterval(86_400), mode: .reportOnly)
        #expect(try report.evaluate(certificates: [Self.der], now: Self.now).allowsConnection)
        #expect(
            try enforce.evaluate(certificates: [Self.der], now: Self.now.addingTimeInterval(86_401)).allowsConnection)
    }

    @Test func requiresBackupPinsAndWellFormedPins() {
        #expect(throws: CryptoError(.malformedInput)) { try PinSet(pins: [Self.pins[0]], expires: Self.now) }
        #expect(throws: CryptoError(.malformedInput)) {
            try PinSet(pins: [Self.pins[0], Self.pins[0]], expires: Self.now)
        }
        #expect(throws: CryptoError(.malformedInput)) {
            try PinSet(pins: [Self.pins[0], "sha1/abc"], expires: Self.now)
        }
        #expect(throws: CryptoError(.malformedInput)) {
            try PinSet(pins: [Self.pins[0], Self.pins[1]], expires: Self.now).evaluate(
                certificates: [[0x30, 0x00]], now: Self.now)
        }
    }
}
