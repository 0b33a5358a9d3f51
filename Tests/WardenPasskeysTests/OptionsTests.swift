import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

@Suite("Options JSON")
struct OptionsTests {
    @Test func creationOptionsHaveTheBrowserShape() throws {
        let challenge = try PasskeyChallenge(binding: "s", ceremony: .registration)
        let options = PasskeyCreationOptions(
            relyingParty: PasskeyFixtures.rp, rpName: "Example", userID: [1, 2, 3], userName: "ada@example.com",
            challenge: challenge,
            excludeCredentials: [PasskeyCredentialDescriptor(id: [4, 5], transports: ["internal"])])
        let object = try JSONReader().parseObject(Array(options.json().utf8))
        #expect(object["rp"]?.objectValue?["id"]?.stringValue == "example.com")
        #expect(object["user"]?.objectValue?["id"]?.stringValue == "AQID")
        #expect(object["challenge"]?.stringValue == challenge.base64URL)
        let algorithms = object["pubKeyCredParams"]?.arrayValue?.compactMap {
            $0.objectValue?["alg"]?.numberValue?.int64
        }
        #expect(algorithms == COSEAlgorithm.supported.map(\.rawValue))
        #expect(object["excludeCredentials"]?.arrayValue?.first?.objectValue?["id"]?.stringValue == "BAU")
        #expect(object["authenticatorSelection"]?.objectValue?["residentKey"]?.stringValue == "required")
        #expect(object["attestation"]?.stringValue == "none")
        let timeout = try #require(object["timeout"]?.numberValue?.int64)
        #expect((290_000...300_000).contains(timeout))
    }

    @Test func requestOptionsHaveTheBrowserShape() throws {
        let challenge = try PasskeyChallenge(binding: "s", ceremony: .authentication)
        let options = PasskeyRequestOptions(
            relyingParty: PasskeyFixtures.rp, challenge: challenge, userVerification: .required)
        let object = try JSONReader().parseObject(Array(options.json().utf8))
        #expect(object["rpId"]?.stringValue == "example.com")
        #expect(object["allowCredentials"]?.arrayValue?.isEmpty == true)
        #expect(object["userVerification"]?.stringValue == "required")
        #expect(object["challenge"]?.stringValue == challenge.base64URL)
    }

    @Test func relyingPartyConfigurationIsChecked() {
        for (id, origins) in [
            ("", ["https://a"]), ("https://example.com", ["https://example.com"]), ("example.com", []),
            ("example.com", ["https://example.com/"]),
        ] {
            #expect(throws: PasskeyError(.invalidConfiguration)) { try RelyingParty(id: id, origins: Set(origins)) }
        }
    }

    @Test func credentialRecordRejectsBadDocuments() throws {
        let (_, record) = try AssertionTests.registered()
        let good = record.json()
        #expect(try CredentialRecord(json: Array(good.utf8)) == record)
        for (name, bad) in [
            ("negative count", good.replacingOccurrences(of: #""signCount":0"#, with: #""signCount":-1"#)),
            ("algorithm differs", good.replacingOccurrences(of: #""algorithm":-7"#, with: #""algorithm":-8"#)),
            ("aaguid not a UUID", good.replacingOccurrences(of: record.aaguidString, with: "zz")),
            (
                "aaguid without hyphens",
                good.replacingOccurrences(
                    of: record.aaguidString, with: record.aaguidString.replacingOccurrences(of: "-", with: ""))
            ),
            ("flag not a bool", good.replacingOccurrences(of: #""backedUp":true"#, with: #""backedUp":1"#)),
            ("not JSON", "{"),
        ] {
            #expect(throws: (any Error).self, "\(name)") { try CredentialRecord(json: Array(bad.utf8)) }
        }
    }
}
