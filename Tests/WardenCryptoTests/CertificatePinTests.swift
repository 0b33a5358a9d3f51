import Foundation
import Testing
import WardenCrypto

@Suite("SPKI pins from X.509 certificates")
struct CertificatePinTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!))
    }

    /// Pins recorded with `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary
    /// | base64` when the fixtures were made (rsa, p256, p384, ed25519).
    static func recordedPins() throws -> [String] {
        String(decoding: try fixture("expected-pins.txt"), as: UTF8.self).split(separator: "\n").map { "sha256/\($0)" }
    }

    /// The same pipeline, run now with the machine's openssl, when it has one.
    static func opensslPin(_ file: String) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return nil }
        let path = Bundle.module.url(forResource: "Fixtures/\(file)", withExtension: nil)!.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return "sha256/" + output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: zip(["rsa.pem", "p256.pem", "p384.pem", "ed25519.pem"], 0..<4))
    func matchesOpenSSL(file: String, index: Int) throws {
        let pins = try CertificatePin.pins(fromCertificates: try Self.fixture(file))
        #expect(pins.count == 1)
        #expect(pins[0].description == (try Self.recordedPins())[index])
        if let live = try Self.opensslPin(file) { #expect(pins[0].description == live) }
    }

    @Test func chainGivesOnePinPerCertificate() throws {
        let pins = try CertificatePin.pins(fromCertificates: try Self.fixture("chain.pem"))
        #expect(pins.map(\.description) == (try Self.recordedPins()))
    }

    @Test func derCertificate() throws {
        let pins = try CertificatePin.pins(fromCertificates: try Self.fixture("p256.der"))
        #expect(pins.map(\.description) == [(try Self.recordedPins())[1]])
    }

    @Test func pinStringRoundTrip() throws {
        let text = (try Self.recordedPins())[0]
        #expect(CertificatePin(text)?.description == text)
        #expect(CertificatePin("sha1/abc") == nil)
        #expect(CertificatePin("sha256/AAAA") == nil)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let input: [UInt8]
        let expected: CryptoError.Code
        var testDescription: String { name }
    }

    static let bad: [Bad] = {
        let der = (try? fixture("p256.der")) ?? []
        let pem = (try? fixture("p256.pem")) ?? []
        return [
            Bad(name: "empty", input: [], expected: .noCertificate),
            Bad(
                name: "random bytes", input: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) },
                expected: .noCertificate),
            Bad(name: "truncated DER", input: Array(der.prefix(der.count / 2)), expected: .malformedInput),
            Bad(name: "DER with trailing garbage", input: der + [1, 2, 3], expected: .malformedInput),
            Bad(name: "SEQUENCE of junk", input: [0x30, 0x03, 0x02, 0x01, 0x00], expected: .malformedInput),
            Bad(name: "over 1 MiB", input: [UInt8](repeating: 0x30, count: (1 << 20) + 1), expected: .inputTooLarge),
            Bad(
                name: "PEM private key only",
                input: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
                expected: .noCertificate),
            Bad(name: "truncated PEM", input: Array(pem.prefix(pem.count - 40)), expected: .malformedInput),
            Bad(
                name: "PEM with corrupted body",
                input: Array("-----BEGIN CERTIFICATE-----\nMIIBfzCCASWgAwIBAgIU\n-----END CERTIFICATE-----\n".utf8),
                expected: .malformedInput),
            Bad(
                name: "invalid UTF-8 around PEM", input: [0xFF, 0xFE] + Array("-----BEGIN CERTIFICATE-----".utf8),
                expected: .malformedInput),
        ]
    }()

    @Test(arguments: bad)
    func rejects(_ bad: Bad) {
        #expect(throws: CryptoError(bad.expected)) { try CertificatePin.pins(fromCertificates: bad.input) }
    }
}
