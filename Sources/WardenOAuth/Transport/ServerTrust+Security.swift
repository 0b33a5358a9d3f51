#if WARDEN_APPLE
    import Foundation
    import Security

    extension ServerTrust {
        /// Apple platforms: system trust evaluation (`SecTrustEvaluateWithError`), then the pins of the host.
        func evaluate(_ challenge: URLAuthenticationChallenge) -> Verdict {
            let space = challenge.protectionSpace
            guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let serverTrust = space.serverTrust
            else { return .defaultHandling }
            var error: CFError?
            let trusted = SecTrustEvaluateWithError(serverTrust, &error)
            let chain =
                trusted
                ? ((SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate]) ?? []).map {
                    Array(SecCertificateCopyData($0) as Data)
                } : nil
            switch verdict(host: space.host, chain: chain, now: now()) {
            case .notPinned: return .defaultHandling
            case .accept: return .accept(URLCredential(trust: serverTrust))
            case .refuse(let reason): return .refuse(reason)
            }
        }
    }
#endif
