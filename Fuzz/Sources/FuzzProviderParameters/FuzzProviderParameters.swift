import Foundation
import FuzzSupport
import WardenCore
import WardenOAuth

/// What the façade takes from apps and providers around OpenID Connect: provider parameters
/// (``AuthorizationParameters``, `--param NAME=VALUE`), the token response's `Date` header (``HTTPDate``,
/// ``ProviderTime``) and the return of an RP-initiated logout (``EndSessionRequest/validateReturn(_:)``).
///
/// Input: a flag byte, then `NAME=VALUE` lines up to an empty line, then one `Date` header line, then the logout
/// return URL, where `{S}` stands for the request's `state`. Accepted parameters encode to pairs that are each
/// bounded, free of control characters and never a name the request sets itself, and read back to the same
/// encoding; a parsed date formats to a date that parses to itself; the clock correction never exceeds its bound;
/// an accepted logout return went to the registered redirect and carries the state exactly once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let flags = input.byte()
    var pairs: [(String, String)] = []
    while true {
        let line = String(decoding: input.field(), as: UTF8.self)
        guard !line.isEmpty, pairs.count < 32 else { break }
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        pairs.append((String(parts[0]), parts.count == 2 ? String(parts[1]) : ""))
    }
    checkParameters(pairs)
    checkDate(String(decoding: input.field(), as: UTF8.self), flags: flags)
    checkLogoutReturn(String(decoding: input.rest(), as: UTF8.self), redirect: Fixture.redirects[Int(flags & 1)])
    return 0
}

func checkParameters(_ pairs: [(String, String)]) {
    guard let parameters = try? AuthorizationParameters(pairs: pairs), let encoded = try? parameters.encoded() else {
        return
    }
    let reserved: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "request_uri", "request", "dpop_jkt", "response_mode",
    ]
    for (name, value) in encoded {
        require(!reserved.contains(name), "a reserved name was accepted: \(name)")
        require(!name.isEmpty && name.utf8.count <= 64, "name length")
        require(!value.isEmpty && value.utf8.count <= 2048, "value length")
        require(!value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a control character")
    }
    if let maxAge = parameters.maxAge { require(maxAge >= 0, "a negative max_age") }
    require(!parameters.prompt.contains(.none) || parameters.prompt.count == 1, "prompt=none combined")
    guard let again = try? AuthorizationParameters(pairs: encoded).encoded() else {
        fatalError("accepted parameters do not read back")
    }
    require(again.map { "\($0.0)=\($0.1)" } == encoded.map { "\($0.0)=\($0.1)" }, "the encoding is not stable")
}

func checkDate(_ header: String, flags: UInt8) {
    guard let date = HTTPDate.parse(header) else { return }
    require(HTTPDate.parse(HTTPDate.format(date)) == date, "a parsed date does not round-trip")
    let device = Date(timeIntervalSince1970: 1_800_000_000 + Double(flags) * 97)
    let time = ProviderTime(serverDate: date, receivedAt: device)
    require(abs(time.offset) <= time.maximumOffset, "a correction beyond the bound")
    require(time.offset == 0 || time.offset == time.measuredOffset, "a correction that is not the measured offset")
}

func checkLogoutReturn(_ text: String, redirect: String) {
    guard let request = Fixture.logout(redirect) else { return }
    let state = request.state.unredacted()
    let callback = text.replacingOccurrences(of: "{S}", with: state)
    guard (try? request.validateReturn(callback)) != nil else { return }
    require((try? RedirectURI(redirect))?.matches(callback) == true, "a return to another redirect was accepted")
    let query = callback.split(separator: "#", maxSplits: 1)[0].split(separator: "?", maxSplits: 1)
    guard query.count == 2, let pairs = formPairs(String(query[1])) else {
        fatalError("accepted a logout return without a readable query")
    }
    require(pairs.filter { $0.0 == "state" }.map(\.1) == [state], "state not exactly once")
    require(!pairs.contains { $0.0 == "error" }, "a provider error was taken for a logout")
}

enum Fixture {
    static let redirects = ["com.example.app:/logged-out", "http://127.0.0.1/logged-out"]

    static func logout(_ redirect: String) -> EndSessionRequest? {
        guard
            let metadata = try? ProviderMetadata(
                issuer: "https://issuer.example.com",
                authorizationEndpoint: URL(string: "https://issuer.example.com/a")!,
                tokenEndpoint: URL(string: "https://issuer.example.com/t")!
            ).withEndSessionEndpoint(URL(string: "https://issuer.example.com/logout")!)
        else { return nil }
        return try? EndSessionRequest(
            metadata: metadata, clientID: "app", idTokenHint: nil, postLogoutRedirectURI: try? RedirectURI(redirect),
            random: FixedRandom())
    }
}

/// 0x5A bytes: `state` is always `WlpaWlpa...`.
struct FixedRandom: RandomSource {
    func bytes(count: Int) throws -> [UInt8] { Array(repeating: 0x5A, count: count) }
}

@_cdecl("FuzzProviderParameters_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
