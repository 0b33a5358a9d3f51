import Foundation
import FuzzSupport
import WardenApple
import WardenCore
import WardenOAuth

/// Authorization responses (RFC 6749 §4.1.2, RFC 9207, RFC 9700 §4.7) through ``PendingAuthorization`` and
/// ``AuthorizationResponseValidator``, and redirect URIs (RFC 8252) through ``RedirectURI``.
///
/// Input: a flag byte (bits 0–1 pick a registered redirect, bit 2 reads it from the first line instead, bit 3 has
/// the provider announce `iss`), then the callback URL, where `{S}` stands for the pending request's `state`. An
/// accepted callback went to the registered redirect, carries `state` exactly once and a bounded VSCHAR code, no
/// credentials in the fragment, and cannot be used twice; every redirect URI matches itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let flags = input.byte()
    let redirectText =
        flags & 4 != 0 ? String(decoding: input.field(), as: UTF8.self) : Fixture.redirects[Int(flags & 3)]
    guard let redirect = try? RedirectURI(redirectText) else { return 0 }
    checkRedirect(redirect)

    let announcesIssuer = flags & 8 != 0
    let pending = Fixture.pending(redirect, announcesIssuer: announcesIssuer)
    let state = pending.state.unredacted()
    let callback = String(decoding: input.rest(), as: UTF8.self).replacingOccurrences(of: "{S}", with: state)
    _ = redirect.matches(callback)

    let validator = AuthorizationResponseValidator(
        redirectURI: redirect, state: pending.state, issuer: Fixture.issuer, requireIssuer: announcesIssuer)
    let authenticated = try? validator.authenticate(callback)
    let code = authenticated.flatMap { try? validator.code(from: $0) }
    if let parameters = authenticated {
        require(parameters["state"] == state, "authenticated with another state")
        require(parameters["iss"].map { $0 == Fixture.issuer } ?? !announcesIssuer, "iss \(parameters["iss"] ?? "-")")
        require(redirect.matches(callback), "authenticated a callback to another redirect")
    }

    do {
        let authorization = try pending.validate(callback)
        let value = authorization.code.unredacted()
        require(code?.unredacted() == value, "the validator and the pending request disagree")
        require(callback.utf8.count <= PendingAuthorization.maximumCallbackBytes, "callback over the cap")
        require(!value.isEmpty && value.utf8.count <= PendingAuthorization.maximumCodeBytes, "code length")
        require(value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }, "code outside VSCHAR")
        require(authorization.pending === pending, "code bound to another request")
        checkQuery(callback, state: state, code: value)
        do {
            _ = try pending.validate(callback)
            fatalError("a pending authorization validated twice")
        } catch {
            require(error.code == .unknownState, "replay refused with \(error.code)")
        }
    } catch {
        require(code == nil, "the pending request refused what the validator accepted: \(error.code)")
        require(error.code != .unknownState, "a fresh request reported as used")
    }
    return 0
}

/// The query and fragment of an accepted callback, split independently of Warden's URL reader.
func checkQuery(_ callback: String, state: String, code: String) {
    let beforeFragment = callback.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let query = beforeFragment[0].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    guard query.count == 2, let pairs = formPairs(String(query[1])) else {
        fatalError("accepted a callback without a readable query")
    }
    require(pairs.filter { $0.0 == "state" }.map(\.1) == [state], "state not exactly once")
    require(pairs.filter { $0.0 == "code" }.map(\.1) == [code], "code not exactly once")
    require(Set(pairs.map(\.0)).count == pairs.count, "a repeated parameter was accepted")
    guard beforeFragment.count == 2 else { return }
    if let fragment = formPairs(String(beforeFragment[1])) {
        require(!fragment.contains { $0.0 == "code" || $0.0 == "access_token" }, "credentials in the fragment")
    }
    // Fuzz/Crashes/FuzzCallback/undecodable-fragment-with-code: `#code=x&%` once passed, undecoded.
    let rawNames = beforeFragment[1].split(separator: "&").map {
        $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
    }
    require(!rawNames.contains { $0 == "code" || $0 == "access_token" }, "credentials in an undecodable fragment")
}

/// A registered redirect matches itself (and, for loopback, itself on any port); the ASWebAuthenticationSession
/// callback exists for every kind but loopback.
func checkRedirect(_ redirect: RedirectURI) {
    require(redirect.matches(redirect.string), "\(redirect) does not match itself")
    switch (redirect.kind, WebAuthenticationCallback(redirect)) {
    case (.loopback, nil):
        for port in [1, 8080, 65535] {
            let concrete = redirect.withPort(port)
            require(redirect.matches(concrete), "\(redirect) does not match \(concrete)")
            require((try? RedirectURI(concrete))?.kind == .loopback, "\(concrete) is not a loopback redirect")
        }
    case (.privateUseScheme, .customScheme(let scheme)?):
        require(redirect.string.lowercased().hasPrefix(scheme + ":"), "scheme \(scheme) of \(redirect)")
    case (.claimedHTTPS, .https(let host, let path)?):
        require(host == host.lowercased() && path.hasPrefix("/"), "https callback \(host) \(path)")
    default:
        fatalError("\(redirect.kind) redirect with callback \(String(describing: WebAuthenticationCallback(redirect)))")
    }
}

enum Fixture {
    static let issuer = "https://issuer.example.com"
    static let redirects = [
        "com.example.app:/oauth/callback", "https://app.example.com/oauth/callback", "http://127.0.0.1/callback",
        "http://[::1]/callback",
    ]

    /// A pending request with a fixed state: `make` with a deterministic random source.
    static func pending(_ redirect: RedirectURI, announcesIssuer: Bool) -> PendingAuthorization {
        do {
            let metadata = try ProviderMetadata(
                issuer: issuer, authorizationEndpoint: URL(string: issuer + "/authorize")!,
                tokenEndpoint: URL(string: issuer + "/token")!,
                authorizationResponseIssParameterSupported: announcesIssuer)
            let request = try AuthorizationRequest(
                metadata: metadata, clientID: "app", redirectURI: redirect, scopes: ["openid"])
            return try request.make(
                random: FixedRandom(), redirectOverride: redirect.kind == .loopback ? redirect.withPort(8080) : nil
            ).pending
        } catch {
            fatalError("fixture: \(error)")
        }
    }
}

/// 0x5A bytes: `state` is always `WlpaWlpa...` (43 characters).
struct FixedRandom: RandomSource {
    func bytes(count: Int) throws -> [UInt8] { Array(repeating: 0x5A, count: count) }
}

@_cdecl("FuzzCallback_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
