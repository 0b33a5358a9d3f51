import Foundation

/// A certificate pinning policy: SPKI SHA-256 pins with required backups, an expiry after which the policy
/// stops enforcing, and an enforce or report-only mode.
///
/// Pinning is never a replacement for trust evaluation: the Apple delegate (`PinningURLSessionDelegate` in
/// WardenApple) runs `SecTrustEvaluateWithError` first and consults the pin set only for a chain the system
/// already trusts. The expiry keeps a shipped app from bricking itself when the server's keys rotate.
///
/// ```swift
/// let pins = try PinSet(pins: ["sha256/AAAA...=", "sha256/BBBB...="], expires: Date(timeIntervalSince1970: 1_830_000_000))
/// switch pins.evaluate(chain: spkiHashes, now: Date()) { case .allow: ...; case .block(let reason): ... }
/// ```
public struct PinSet: Sendable, Equatable {
    /// Enforce (block on mismatch) or only report.
    public enum Mode: Sendable, Equatable {
        /// A chain that matches no pin is blocked, until the pin set expires.
        case enforce
        /// A chain that matches no pin is allowed, with a report.
        case reportOnly
    }

    /// The outcome for one chain.
    public enum Decision: Sendable, Equatable {
        /// A pin matched.
        case allow
        /// No pin matched but the policy does not block (report-only or expired); `report` says why.
        case allowWithReport(String)
        /// No pin matched and the policy enforces.
        case block(String)

        /// Whether the connection may proceed: false only for ``PinSet/Decision/block(_:)``.
        public var allowsConnection: Bool {
            if case .block = self { return false }
            return true
        }
    }

    /// The accepted SPKI SHA-256 pins; at least two distinct ones.
    public let pins: Set<CertificatePin>
    /// When the policy stops enforcing: from then on a chain that matches no pin is allowed with a report.
    public let expires: Date
    /// Whether a chain that matches no pin is blocked (``PinSet/Mode/enforce``, the default) or only reported.
    public let mode: Mode

    /// A pin set. At least two pins are required: one for the current key and at least one backup that is not
    /// yet deployed (RFC 7469 §4.3's lesson), and the expiry must be set.
    public init(pins: [String], expires: Date, mode: Mode = .enforce) throws(CryptoError) {
        var parsed: Set<CertificatePin> = []
        for text in pins {
            guard let pin = CertificatePin(text) else {
                throw CryptoError(.malformedInput, "a pin must be sha256/<base64 of 32 bytes>")
            }
            parsed.insert(pin)
        }
        guard parsed.count >= 2 else {
            throw CryptoError(.malformedInput, "a pin set needs at least two distinct pins (a backup pin is required)")
        }
        self.pins = parsed
        self.expires = expires
        self.mode = mode
    }

    /// Decides for a chain given as the SHA-256 pins of each certificate's SPKI (leaf first). Any match in the
    /// chain allows (so pinning an intermediate or a root works).
    public func evaluate(chain: [CertificatePin], now: Date) -> Decision {
        if chain.contains(where: pins.contains) { return .allow }
        let summary = "no pin matched the \(chain.count)-certificate chain"
        if now >= expires { return .allowWithReport(summary + " (the pin set expired \(expires); not enforcing)") }
        switch mode {
        case .reportOnly: return .allowWithReport(summary + " (report-only)")
        case .enforce: return .block(summary)
        }
    }

    /// Decides for a chain given as DER certificates.
    public func evaluate(certificates: [[UInt8]], now: Date) throws(CryptoError) -> Decision {
        let chain = try certificates.map { (der) throws(CryptoError) in
            CertificatePin(spkiDER: try CertificateBackend.spki(fromDER: der))
        }
        return evaluate(chain: chain, now: now)
    }
}
