import Foundation
import WardenCore
import WardenCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Certificate pinning for ``URLSessionTransport``: on a server-trust challenge for a pinned host, the system's
/// trust evaluation runs first, then the chain's SPKI pins are checked against the host's ``PinSet``. Hosts without
/// pins get the system's default handling.
///
/// Only Apple platforms expose the server trust (`SecTrust`); elsewhere ``canEvaluate`` is false and the
/// transport refuses to be configured with pins.
struct ServerTrust: Sendable {
    let pins: [String: PinSet]
    /// The time pin sets are judged at (their expiry).
    var now: NowProvider = systemNow

    enum Verdict {
        case defaultHandling
        case accept(URLCredential)
        case refuse(String)
    }

    #if WARDEN_APPLE
        static let canEvaluate = true
    #else
        static let canEvaluate = false
    #endif

    /// What a challenge for `host` should get, given the chain's DER certificates (nil when the system trust
    /// evaluation failed). Portable, so it is tested on Linux.
    func verdict(host: String, chain: [[UInt8]]?, now: Date) -> PinVerdict {
        guard let set = pins[host.lowercased()] else { return .notPinned }
        guard let chain else { return .refuse("the system did not trust \(host)'s certificate chain") }
        guard let decision = try? set.evaluate(certificates: chain, now: now) else {
            return .refuse("\(host)'s certificates could not be read")
        }
        switch decision {
        case .allow: return .accept
        case .allowWithReport(let report):
            WardenLogger(category: "pinning").warning("\(host): \(report)")
            return .accept
        case .block: return .refuse("no certificate of \(host)'s chain matches a configured pin")
        }
    }

    enum PinVerdict: Equatable {
        case notPinned, accept
        case refuse(String)
    }
}

#if !WARDEN_APPLE
    extension ServerTrust {
        /// No server trust to evaluate here (the transport refuses pins on this platform).
        func evaluate(_ challenge: URLAuthenticationChallenge) -> Verdict { .defaultHandling }
    }
#endif
