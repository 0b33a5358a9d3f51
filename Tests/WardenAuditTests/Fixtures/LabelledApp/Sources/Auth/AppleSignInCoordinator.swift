//
//  AppleSignInCoordinator.swift
//  Ledgerly
//

import AuthenticationServices
import CryptoKit
import Foundation
import os

final class AppleSignInCoordinator: NSObject {
    static let shared = AppleSignInCoordinator()

    private let provider = ASAuthorizationAppleIDProvider()  // twin: siwa-without-credential-state
    private let logger = Logger(subsystem: "com.ledgerly.app", category: "siwa")
    private var currentNonce: String?
    private var completion: ((Result<TokenResponse, Error>) -> Void)?

    private enum StoreKey {
        static let appleUserID = "siwa.userIdentifier"
    }

    func signIn(completion: @escaping (Result<TokenResponse, Error>) -> Void) {
        self.completion = completion
        let nonce = OAuthClient.randomURLSafeString(byteCount: 32)  // twin: insecure-random-for-secret
        currentNonce = nonce

        let request = provider.createRequest()
        request.requestedScopes = [.fullName, .email]
        request.nonce = Data(SHA256.hash(data: Data(nonce.utf8))).base64URLEncodedString()

        let controller = ASAuthorizationController(authorizationRequests: [request])
        controller.delegate = self
        controller.presentationContextProvider = self
        controller.performRequests()
    }

    /// Called on launch and when returning to the foreground.
    func refreshCredentialState() {
        guard let userID = KeychainStore.shared.readString(account: StoreKey.appleUserID) else { return }
        provider.getCredentialState(forUserID: userID) { [weak self] state, _ in
            switch state {
            case .authorized:
                self?.logger.debug("apple id still authorized")
            case .revoked, .notFound:
                DispatchQueue.main.async {
                    SessionStore.shared.signOut(reason: .credentialRevoked)
                }
            case .transferred:
                self?.logger.notice("apple id transferred to another team")
            @unknown default:
                break
            }
        }
    }
}

extension AppleSignInCoordinator: ASAuthorizationControllerDelegate {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential,
              let identityToken = credential.identityToken.flatMap({ String(data: $0, encoding: .utf8) }),
              let code = credential.authorizationCode.flatMap({ String(data: $0, encoding: .utf8) }) else {
            completion?(.failure(APIError.unauthorized))
            return
        }
        KeychainItem(account: StoreKey.appleUserID, accessibility: .accessibleAfterFirstUnlockThisDeviceOnly).save(credential.user)
        logger.info("apple sign in for \(credential.user, privacy: .private)")
        Task {
            do {
                let tokens = try await exchangeWithBackend(identityToken: identityToken, code: code)
                completion?(.success(tokens))
            } catch {
                completion?(.failure(error))
            }
        }
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: Error) {
        if (error as? ASAuthorizationError)?.code == .canceled { return }
        completion?(.failure(error))
    }

    private func exchangeWithBackend(identityToken: String, code: String) async throws -> TokenResponse {
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent("v2/auth/apple"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "identity_token": identityToken,
            "authorization_code": code,
            "nonce": currentNonce ?? "",
        ])
        let (data, _) = try await URLSession.shared.data(for: request)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(TokenResponse.self, from: data)
    }
}

extension AppleSignInCoordinator: ASAuthorizationControllerPresentationContextProviding {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        UIApplication.shared.connectedScenes
            .compactMap { ($0 as? UIWindowScene)?.keyWindow }
            .first ?? ASPresentationAnchor()
    }
}
