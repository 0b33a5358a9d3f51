import Foundation
import Testing
import WardenCore
import WardenStorage
import WardenTestSupport

@testable import WardenSession

@Suite("TokenSet")
struct TokenSetTests {
    @Test func roundTripAndRedaction() throws {
        let set = TokenSet(
            accessToken: "access-SECRET-1234567890", refreshToken: "refresh-SECRET-123", idToken: nil,
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), scope: "openid", issuer: "https://id.example.com")
        let decoded = try TokenSet(encoded: try set.encoded())
        #expect(decoded == set)
        var dumped = ""
        dump(set, to: &dumped)
        for text in ["\(set)", String(reflecting: set), dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }

    @Test(arguments: [
        "", "{}", "not json", #"{"v":2,"accessToken":"a","issuer":"i"}"#, #"{"v":1,"accessToken":"","issuer":"i"}"#,
        #"{"v":1,"issuer":"i"}"#, #"{"v":"1","accessToken":"a","issuer":"i"}"#,
    ])
    func corrupted(_ text: String) {
        #expect(throws: StorageError(.corruptedData)) { try TokenSet(encoded: Data(text.utf8)) }
    }
}
