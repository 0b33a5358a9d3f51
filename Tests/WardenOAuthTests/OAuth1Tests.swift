import Foundation
import Testing
import WardenCrypto

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("OAuth 1.0a signing (RFC 5849)")
struct OAuth1Tests {
    static func signature(_ header: String) -> String {
        let field = header.components(separatedBy: ", ").first { $0.hasPrefix("oauth_signature=") }!
        return String(field.dropFirst("oauth_signature=\"".count).dropLast()).removingPercentEncoding!
    }

    /// RFC 5849 §1.2: the three requests of the photo-printing example (no oauth_version in the RFC).
    @Test func rfc5849Section1_2() throws {
        let initiate = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"), realm: "Photos",
            callback: "http://printer.example.com/ready", includeVersion: false)
        let first = try initiate.authorizationHeader(
            method: "POST", url: "https://photos.example.net/initiate", nonce: "wIjqoS", timestamp: "137131200")
        #expect(Self.signature(first) == "74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
        #expect(first.hasPrefix(#"OAuth realm="Photos", "#))
        let token = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"),
            token: "hh5s93j4hdidpola",
            tokenSecret: "hdhd0244k9j7ao03", realm: "Photos", verifier: "hfdp7dh39dks9884", includeVersion: false)
        let second = try token.authorizationHeader(
            method: "POST", url: "https://photos.example.net/token", nonce: "walatlh", timestamp: "137131201")
        #expect(Self.signature(second) == "gKgrFCywp7rO0OXSjdot/IHF7IU=")
        let resource = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"),
            token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00", realm: "Photos", includeVersion: false)
        let third = try resource.authorizationHeader(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original", nonce: "chapoH",
            timestamp: "137131202")
        #expect(Self.signature(third) == "MdpQcU8iPSUjWoN/UDMsK2sui9I=")
    }

    /// Without a timestamp the signer reads its clock (`now:`), never a hidden `Date()`: at the RFC's instant it
    /// signs the RFC's first request exactly.
    @Test func theTimestampComesFromTheInjectedClock() throws {
        let signer = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"), realm: "Photos",
            callback: "http://printer.example.com/ready", includeVersion: false,
            now: { Date(timeIntervalSince1970: 137_131_200) })
        let header = try signer.authorizationHeader(
            method: "POST", url: "https://photos.example.net/initiate", nonce: "wIjqoS")
        #expect(header.contains(#"oauth_timestamp="137131200""#))
        #expect(Self.signature(header) == "74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
    }

    /// RFC 5849 §3.4.1.1: the base string of the example request, and its correct HMAC-SHA1 (the RFC text's
    /// signature is wrong).
    @Test func rfc5849Section3_4_1_1() throws {
        let parameters = [
            ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
        ]
        let base = try OAuth1Signer.baseString(
            method: "POST", url: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", body: "c2&a3=2+q",
            protocolParameters: parameters)
        #expect(
            base
                == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"
        )
        let signer = OAuth1Signer(
            consumerKey: "9djdj82h48djs9d2", method: .hmacSHA1(consumerSecret: "j49sk3j29djd"),
            token: "kkk9d7dh3k39sjv7",
            tokenSecret: "dh893hdasih9", includeVersion: false)
        #expect(try signer.signature(base) == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    /// OAuth Core 1.0 Appendix A.5 (with oauth_version).
    @Test func oauthCore1AppendixA5() throws {
        let signer = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"),
            token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00")
        let header = try signer.authorizationHeader(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original",
            nonce: "kllo9940pd9333jh",
            timestamp: "1191242096")
        #expect(Self.signature(header) == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
        #expect(header.contains(#"oauth_version="1.0""#))
    }

    @Test func plaintextAndRSA() throws {
        let plain = OAuth1Signer(
            consumerKey: "k", method: .plaintext(consumerSecret: "c&s"), token: "t", tokenSecret: "t s")
        #expect(
            Self.signature(
                try plain.authorizationHeader(method: "GET", url: "https://a.example/", nonce: "n", timestamp: "1"))
                == "c%26s&t%20s")
        let key = try RSAPrivateKey(generatingBits: 2048)
        let rsa = OAuth1Signer(consumerKey: "k", method: .rsaSHA256(key))
        let header = try rsa.authorizationHeader(method: "GET", url: "https://a.example/x", nonce: "n", timestamp: "1")
        let base = try OAuth1Signer.baseString(
            method: "GET", url: "https://a.example/x", body: nil,
            protocolParameters: rsa.protocolParameters(nonce: "n", timestamp: "1"))
        #expect(
            try key.publicKey.isValidSignature(
                Array(Data(base64Encoded: Self.signature(header))!), for: Array(base.utf8),
                algorithm: .rsaPKCS1v15(.sha256)))
        #expect(!"\(rsa)".contains("BEGIN"))
    }

    @Test func badInput() {
        let signer = OAuth1Signer(consumerKey: "k", method: .hmacSHA1(consumerSecret: "s"))
        #expect(throws: OAuthError(.invalidConfiguration)) {
            try signer.authorizationHeader(method: "GET", url: "not a url")
        }
        #expect(throws: OAuthError(.invalidConfiguration)) {
            try signer.authorizationHeader(method: "GET", url: "ftp://x.example/")
        }
        #expect(throws: OAuthError(.malformedResponse)) {
            try signer.authorizationHeader(method: "POST", url: "https://x.example/", body: "a=%zz")
        }
        // Protocol parameters travel in the header only (RFC 5849 §3.5): in the query or a form body they would be
        // signed and sent twice, and could override the header's at a lenient server.
        for (url, body) in [
            ("https://x.example/?oauth_consumer_key=other", nil), ("https://x.example/?a=1&oauth_nonce=x", nil),
            ("https://x.example/", "oauth_signature_method=PLAINTEXT&b=2"),
            ("https://x.example/?oauth_signature=forged", nil),
        ] as [(String, String?)] {
            let error = #expect(throws: OAuthError.self) {
                try signer.authorizationHeader(method: "POST", url: url, body: body)
            }
            #expect(error?.code == .invalidConfiguration && error?.reason.contains("Authorization header only") == true)
        }
        // In a JSON body an oauth_ text is data; a parameter the header does not carry is the request's own.
        #expect(throws: Never.self) {
            try signer.authorizationHeader(
                method: "POST", url: "https://x.example/", body: "oauth_nonce=x", contentType: "application/json")
        }
        #expect(throws: Never.self) {
            try signer.authorizationHeader(method: "GET", url: "https://x.example/?oauth_extra=1")
        }
        // A JSON body is sent but not signed: not an error.
        #expect(throws: Never.self) {
            try signer.authorizationHeader(
                method: "POST", url: "https://x.example/", body: #"{"a":1}"#, contentType: "application/json")
        }
    }
}
