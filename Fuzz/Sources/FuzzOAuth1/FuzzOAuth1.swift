import Foundation
import FuzzSupport
import WardenCore
import WardenCrypto
import WardenOAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OAuth 1.0a signing (RFC 5849 §3.4) of a request taken from the input: the first line is the HTTP method, the
/// second the URL, the third the Content-Type, the rest the body. The signature base string must be
/// `METHOD&enc(base URI)&enc(parameters)` with the parameters decodable, complete and sorted; the Authorization
/// header must be deterministic for a fixed nonce and timestamp and carry every protocol parameter once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let method = String(decoding: input.field(), as: UTF8.self)
    let url = String(decoding: input.field(), as: UTF8.self)
    let contentType = String(decoding: input.field(), as: UTF8.self)
    let body = String(decoding: input.rest(), as: UTF8.self)
    let protocolParameters = Fixture.signer.protocolParameters

    if let base = try? OAuth1Signer.baseString(
        method: method, url: url, body: body, protocolParameters: protocolParameters + [("oauth_signature", "x")])
    {
        checkBaseString(base, method: method, url: url, body: body, protocolCount: protocolParameters.count)
    }

    let signed = try? Fixture.signer.authorizationHeader(
        method: method, url: url, body: body, contentType: contentType, nonce: "n0nce", timestamp: "137131200")
    if let signed {
        require(signed.hasPrefix("OAuth realm=\"Example\", "), "header prefix: \(signed)")
        let again = try? Fixture.signer.authorizationHeader(
            method: method, url: url, body: body, contentType: contentType, nonce: "n0nce", timestamp: "137131200")
        require(again == signed, "signing is not deterministic")
        let fields = signed.dropFirst(6).components(separatedBy: ", ").map { $0.split(separator: "=").first ?? "" }
        require(
            fields
                == [
                    "realm", "oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method",
                    "oauth_timestamp", "oauth_token", "oauth_version",
                ], "header fields \(fields)")
    }
    // PLAINTEXT never reads the request, only its URL for the base string.
    _ = try? Fixture.plaintext.authorizationHeader(method: method, url: url, body: body, contentType: contentType)

    if let parsed = URL(string: url) {
        var request = URLRequest(url: parsed)
        request.httpMethod = method.isEmpty ? nil : method
        request.httpBody = Data(body.utf8)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        try? Fixture.signer.sign(&request)
    }
    return 0
}

/// The structure RFC 5849 §3.4.1 gives the signature base string.
func checkBaseString(_ base: String, method: String, url: String, body: String, protocolCount: Int) {
    let parts = base.split(separator: "&", omittingEmptySubsequences: false)
    let methodParts = method.split(separator: "&", omittingEmptySubsequences: false).count
    require(parts.count == methodParts + 2, "base string parts: \(base)")
    require(parts.dropFirst(methodParts).allSatisfy(isEncoded), "unencoded bytes in \(base)")
    require(parts.prefix(methodParts).joined(separator: "&") == method.uppercased(), "method in \(base)")
    guard let baseURI = String(parts[methodParts]).removingPercentEncoding,
        let normalized = String(parts[methodParts + 1]).removingPercentEncoding
    else { fatalError("base string components do not decode: \(base)") }
    require(baseURI.hasPrefix("http://") || baseURI.hasPrefix("https://"), "base URI \(baseURI)")

    // Every pair is `enc(name)=enc(value)`, sorted by name then value; nothing is lost or added but
    // `oauth_signature`, which no source contributes (RFC 5849 §3.4.1.3.1).
    let pairs = normalized.isEmpty ? [] : normalized.split(separator: "&", omittingEmptySubsequences: false)
    let query = URLComponents(string: url)?.percentEncodedQuery ?? ""
    let sources = [query, body].flatMap { text -> [(String, String)] in formPairs(text) ?? [] }
    let expected = sources.filter { $0.0 != "oauth_signature" }.count + protocolCount
    require(pairs.count == expected, "\(pairs.count) parameters, expected \(expected): \(normalized)")
    let split = pairs.map { pair -> (Substring, Substring) in
        let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        require(halves.count == 2 && isEncoded(halves[0]) && isEncoded(halves[1]), "pair \(pair)")
        return (halves[0], halves[1])
    }
    for (a, b) in zip(split, split.dropFirst()) {
        require(a.0 < b.0 || (a.0 == b.0 && a.1 <= b.1), "parameters out of order: \(normalized)")
    }
    // Fuzz/Crashes/FuzzOAuth1/oauth-signature-in-query: one in the query or body was once signed.
    require(!split.contains { $0.0 == "oauth_signature" }, "oauth_signature is signed")
}

/// Only RFC 3986 unreserved characters and `%XX` escapes with upper-case hex.
func isEncoded(_ text: Substring) -> Bool {
    var iterator = text.utf8.makeIterator()
    while let c = iterator.next() {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            continue
        case UInt8(ascii: "%"):
            for _ in 0..<2 {
                guard let hex = iterator.next(), (0x30...0x39).contains(hex) || (0x41...0x46).contains(hex) else {
                    return false
                }
            }
        default: return false
        }
    }
    return true
}

enum Fixture {
    /// RFC 5849 §1.2's client and token credentials.
    static let signer = OAuth1Signer(
        consumerKey: "dpf43f3p2l4k3l03", method: .hmacSHA1(consumerSecret: "kd94hf93k423kf44"),
        token: "nnch734d00sl2jdk", tokenSecret: "pfkkdhi9sl3r4s00", realm: "Example")
    static let plaintext = OAuth1Signer(
        consumerKey: "key", method: .plaintext(consumerSecret: "secret"), tokenSecret: "token secret",
        callback: "oob", verifier: "verifier", includeVersion: false, random: FixedRandom())
}

struct FixedRandom: RandomSource {
    func bytes(count: Int) throws -> [UInt8] { Array(repeating: 7, count: count) }
}

extension OAuth1Signer {
    /// The `oauth_*` parameters `signer` signs with the fixed nonce and timestamp.
    var protocolParameters: [(String, String)] {
        [
            ("oauth_consumer_key", consumerKey), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "137131200"), ("oauth_nonce", "n0nce"), ("oauth_token", token ?? ""),
            ("oauth_version", "1.0"),
        ]
    }
}

@_cdecl("FuzzOAuth1_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
