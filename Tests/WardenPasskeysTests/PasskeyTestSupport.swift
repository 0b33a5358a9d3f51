import Foundation
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

enum PasskeyFixtures {
    static func data(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!))
    }

    static func recorded() throws -> JSONObject {
        try JSONReader(maximumBytes: 1 << 20, maximumDepth: 16).parseObject(try data("py_webauthn_recorded.json"))
    }

    /// Re-serializes a JSON value (to hand a fixture's `response` member to the response parsers).
    static func serialize(_ value: JSONValue) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: value.foundationObject))
    }

    static let rp = try! RelyingParty(id: "example.com", origins: ["https://example.com"])

    static func challenge() -> [UInt8] { try! SecureRandom().bytes(count: 32) }

    /// The account the tests register credentials for.
    static let userHandle: [UInt8] = Array("warden-test-user".utf8)

    /// A test PKI: root → intermediate → leaf, all P-256.
    struct PKI {
        let rootKey: ECPrivateKey
        let root: CertificateBuilder
        let rootDER: [UInt8]
        let intermediateKey: ECPrivateKey
        let intermediate: CertificateBuilder
        let intermediateDER: [UInt8]

        init(name: String = "Warden Test Root") throws {
            rootKey = try ECPrivateKey()
            root = CertificateBuilder.authority(name)
            rootDER = try root.build(subjectKey: rootKey.publicKey, issuer: nil, issuerKey: rootKey)
            intermediateKey = try ECPrivateKey()
            var intermediate = CertificateBuilder.authority(name + " Intermediate")
            intermediate.serial = 2
            self.intermediate = intermediate
            intermediateDER = try intermediate.build(
                subjectKey: intermediateKey.publicKey, issuer: root, issuerKey: rootKey)
        }

        /// A packed attestation leaf issued by the intermediate.
        func leaf(_ configure: (inout CertificateBuilder) -> Void = { _ in }) throws -> (ECPrivateKey, [UInt8]) {
            let key = try ECPrivateKey()
            var builder = CertificateBuilder()
            builder.serial = 3
            configure(&builder)
            return (key, try builder.build(subjectKey: key.publicKey, issuer: intermediate, issuerKey: intermediateKey))
        }

        var roots: [X509Certificate] { [try! X509Certificate(der: rootDER)] }
    }
}
