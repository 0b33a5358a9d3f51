import Foundation
import Testing

@testable import WardenJOSE

@Suite("Base64url")
struct Base64URLTests {
    @Test func roundTrips() throws {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try Base64URL.decode(text) == bytes)
        }
        #expect(try Base64URL.decode("eyJhbGciOiJFUzI1NiJ9") == Array(#"{"alg":"ES256"}"#.utf8))
    }

    @Test(arguments: [
        "eyJhbGciOiJFUzI1NiJ9=", "ab==", "a+b/", "ab cd", "ab\ncd", "a", "abcde", "AB", "ABC", "é", "ab%d",
    ])
    func rejects(_ text: String) {
        // "AB" and "ABC" have non-zero trailing bits ("AA" / "AAA" are canonical).
        #expect(throws: JOSEError(.invalidBase64)) { try Base64URL.decode(text) }
    }

    @Test func canonicalTrailingBits() throws {
        #expect(try Base64URL.decode("AA") == [0])
        #expect(try Base64URL.decode("AAA") == [0, 0])
        #expect(try Base64URL.decode("AQ") == [1])
    }
}
