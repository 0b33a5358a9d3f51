import Foundation
import Testing
import WardenCore
import WardenCrypto

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("PKCE")
struct PKCETests {
    /// RFC 7636 Appendix B.
    @Test func rfc7636AppendixB() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
        #expect(!"\(pkce)".contains("dBjftJeZ"))
    }

    @Test func freshVerifiers() throws {
        let a = try PKCE()
        let b = try PKCE()
        #expect(a.verifier.unredacted().count == 43 && a.verifier != b.verifier)
    }

    @Test(arguments: [
        String(repeating: "a", count: 42), String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+",
        String(repeating: "a", count: 43) + " ", String(repeating: "é", count: 43),
    ])
    func rejectsVerifiers(_ verifier: String) {
        #expect(throws: OAuthError(.invalidVerifier)) { try PKCE(verifier: verifier) }
    }

    struct Failing: RandomSource {
        func bytes(count: Int) throws -> [UInt8] { throw CryptoError(.randomUnavailable) }
    }

    @Test func randomFailureFailsClosed() {
        #expect(throws: CryptoError(.randomUnavailable)) { try PKCE(random: Failing()) }
    }
}
