import Foundation
import Testing
import WardenCrypto
import WardenTestSupport

@testable import WardenJOSE

@Suite("Wycheproof JWK vectors")
struct WycheproofJWKTests {
    static var file: URL {
        let directory =
            ProcessInfo.processInfo.environment["WARDEN_VECTORS"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/wycheproof")
        return directory.appendingPathComponent("json_web_key_test.json")
    }

    @Test func jsonWebKeyTest() throws {
        guard FileManager.default.fileExists(atPath: Self.file.path) else {
            Issue.record("WYCHEPROOF VECTORS MISSING: \(Self.file.path)")
            return
        }
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as! [String: Any]
        var count = 0
        for group in document["testGroups"] as! [[String: Any]] {
            let keySet = (group["public"] ?? group["private"])!
            let keyJSON = String(decoding: try JSONSerialization.data(withJSONObject: keySet), as: UTF8.self)
            for test in group["tests"] as! [[String: Any]] {
                count += 1
                let id = test["tcId"] as! Int
                let expected = test["result"] as! String
                guard let token = test["jws"] as? String else {
                    Issue.record("tcId \(id): unexpected JWS JSON serialization in vectors")
                    continue
                }
                let outcome = Result { () throws -> JWSVerifier.Verified in
                    let keys = try JWKSet(json: keyJSON)
                    return try JWSVerifier(keys: keys, allowedAlgorithms: Set(JWSAlgorithm.allCases)).verify(token)
                }
                switch (expected, outcome) {
                case ("valid", .success), ("invalid", .failure), ("acceptable", _): break
                default:
                    Issue.record(
                        "json_web_key_test.json tcId \(id) (\(test["comment"] ?? "")): expected \(expected), got \(outcome)"
                    )
                }
            }
        }
        print("wycheproof: json_web_key_test.json: \(count) vectors ran")
        #expect(count == 26)
    }
}
