import Foundation
import Testing
import WardenCore
import WardenJOSE

@testable import WardenOAuth

/// One label for every JSON parse initialiser: `init(json:)` with the document as `[UInt8]`, `String` or `Data`,
/// the same result and the same refusal whichever form the caller has.
@Suite("JSON documents")
struct JSONDocumentTests {
    static let tokens = #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#
    static let jwks =
        #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#

    @Test func everyFormParsesTheSameDocument() throws {
        let fromText = try TokenResponse(json: Self.tokens)
        let fromBytes = try TokenResponse(json: Array(Self.tokens.utf8))
        let fromData = try TokenResponse(json: Data(Self.tokens.utf8))
        #expect([fromText, fromBytes, fromData].map { $0.accessToken.unredacted() } == ["at-1", "at-1", "at-1"])
        #expect(try JWKSet(json: Self.jwks).keys.map(\.keyID) == ["k1"])
        #expect(try JWKSet(json: Data(Self.jwks.utf8)).keys.map(\.keyID) == ["k1"])
        #expect(try JWK(json: Array(#"{"kty":"oct","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0"}"#.utf8)).keyType == .oct)
    }

    @Test func everyFormRefusesTheSameWay() {
        let broken = #"{"access_token":"a","access_token":"b","token_type":"Bearer"}"#  // a duplicate member
        for parse in [
            { try TokenResponse(json: broken) }, { try TokenResponse(json: Array(broken.utf8)) },
            { try TokenResponse(json: Data(broken.utf8)) },
        ] as [() throws -> TokenResponse] {
            #expect(throws: OAuthError(.invalidTokenResponse)) { _ = try parse() }
        }
        #expect(throws: JOSEError.self) { try JWKSet(json: Data("[]".utf8)) }
    }
}
