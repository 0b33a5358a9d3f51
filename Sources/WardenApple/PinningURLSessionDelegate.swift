#if WARDEN_APPLE
    import Foundation
    import Security
    import WardenCore
    import WardenCrypto

    /// A `URLSessionDelegate` that first runs the system trust evaluation (`SecTrustEvaluateWithError`) and only
    /// then matches the chain's SPKI pins against a ``PinSet``. Pinning never replaces trust evaluation.
    public final class PinningURLSessionDelegate: NSObject, URLSessionDelegate, Sendable {
        /// The SPKI pins the server's chain must match once the system has trusted it.
        public let pins: PinSet
        /// Called with a report when a report-only or expired pin set saw a mismatch.
        let report: @Sendable (String) -> Void
        /// The time the pin set's expiry is judged at.
        let now: NowProvider

        /// A delegate enforcing `pins`; `report` receives the report text when a report-only or expired pin set
        /// saw a mismatch, and `now` is the time the pin set's expiry is judged at.
        public init(
            pins: PinSet, report: @escaping @Sendable (String) -> Void = { _ in },
            now: @escaping NowProvider = systemNow
        ) {
            self.pins = pins
            self.report = report
            self.now = now
        }

        /// Answers server-trust challenges: cancels unless the system trust evaluation passes and the pin set
        /// allows the chain (an error evaluating the pins cancels too); other challenges get default handling.
        public func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge) async
            -> (URLSession.AuthChallengeDisposition, URLCredential?)
        {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust
            else { return (.performDefaultHandling, nil) }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else { return (.cancelAuthenticationChallenge, nil) }
            let certificates = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            let der = certificates.map { Array(SecCertificateCopyData($0) as Data) }
            guard let decision = try? pins.evaluate(certificates: der, now: now()) else {
                return (.cancelAuthenticationChallenge, nil)
            }
            switch decision {
            case .allow: return (.useCredential, URLCredential(trust: trust))
            case .allowWithReport(let text):
                report(text)
                return (.useCredential, URLCredential(trust: trust))
            case .block: return (.cancelAuthenticationChallenge, nil)
            }
        }
    }
#endif
