import Foundation
import WardenOAuth

struct BenchOAuth1Command: CLICommand {
    static let configuration = CommandConfiguration(
        name: "oauth1", abstract: "µs per OAuth 1.0a HMAC-SHA1 signature (scripts/bench-oauth1 adds oauthlib).",
        options: [.value("seconds", "S", "Time per measurement (default 2)."), .flag("json", "Print JSON.")])

    /// The requests both sides sign (the same list the peer script uses).
    static let requests: [(String, String, String?)] = [
        ("GET", "https://api.example.com/1.1/statuses/home_timeline.json?count=5&include_entities=true", nil),
        (
            "POST", "https://api.example.com/1.1/statuses/update.json",
            "status=Hello%20Ladies%20%2B%20Gentlemen&include_entities=true"
        ),
        // warden:ignore cleartext-http RFC 5849 example request: signed for the benchmark, never fetched
        ("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original", nil),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let seconds = Double(try arguments.integer("seconds", range: 1...60) ?? 2)
        if let warning = Bench.buildWarning { io.err(warning) }
        let signer = OAuth1Signer(
            consumerKey: "consumer-key", method: .hmacSHA1(consumerSecret: "consumer-secret"), token: "token",
            tokenSecret: "token-secret")
        var index = 0
        let result = try Bench.measure("oauth1", seconds: seconds) {
            let (method, url, body) = requests[index % requests.count]
            index += 1
            _ = try signer.authorizationHeader(
                method: method, url: url, body: body, nonce: "nonce", timestamp: "1700000000")
        }
        if arguments.has("json") {
            io.out(JSONOutput.string(["us_per_signature": (result.microseconds * 1000).rounded() / 1000]))
        } else {
            io.out("oauth1 HMAC-SHA1: \(Bench.format(result.microseconds, decimals: 2)) µs per signed request")
        }
        return ExitCode.success
    }
}
