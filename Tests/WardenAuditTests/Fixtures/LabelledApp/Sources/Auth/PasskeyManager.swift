//
//  PasskeyManager.swift
//  Ledgerly
//

import AuthenticationServices
import Foundation

struct PasskeyChallenge: Decodable {
    var challenge: String
    var userID: String
    var userName: String
}

final class PasskeyManager: NSObject {
    static let relyingParty = "example.com"

    private lazy var provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: Self.relyingParty)  // twin: passkeys-without-webcredentials
    private var continuation: CheckedContinuation<ASAuthorization, Error>?
    weak var anchor: ASPresentationAnchor?

    func register(with challenge: PasskeyChallenge) async throws -> ASAuthorizationPlatformPublicKeyCredentialRegistration? {
        guard let challengeData = Data(base64Encoded: challenge.challenge) else { return nil }
        let request = provider.createCredentialRegistrationRequest(
            challenge: challengeData,
            name: challenge.userName,
            userID: Data(challenge.userID.utf8)
        )
        let authorization = try await perform([request])
        return authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration
    }

    func assert(with challenge: Data, preferImmediatelyAvailable: Bool) async throws -> ASAuthorizationPlatformPublicKeyCredentialAssertion? {
        let request = provider.createCredentialAssertionRequest(challenge: challenge)
        let controller = ASAuthorizationController(authorizationRequests: [request])
        controller.delegate = self
        controller.presentationContextProvider = self
        let authorization: ASAuthorization = try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            if preferImmediatelyAvailable {
                controller.performRequests(options: .preferImmediatelyAvailableCredentials)
            } else {
                controller.performRequests()
            }
        }
        return authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion
    }

    private func perform(_ requests: [ASAuthorizationRequest]) async throws -> ASAuthorization {
        let controller = ASAuthorizationController(authorizationRequests: requests)
        controller.delegate = self
        controller.presentationContextProvider = self
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            controller.performRequests()
        }
    }

    func submitAssertion(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) async throws {
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent("v2/auth/passkeys/assert"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "credential_id": assertion.credentialID.base64URLEncodedString(),
            "client_data": assertion.rawClientDataJSON.base64URLEncodedString(),
            "authenticator_data": assertion.rawAuthenticatorData.base64URLEncodedString(),
            "signature": assertion.signature.base64URLEncodedString(),
            "user_handle": assertion.userID.base64URLEncodedString(),
        ])
        _ = try await URLSession.shared.data(for: request)
    }
}

extension PasskeyManager: ASAuthorizationControllerDelegate {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        continuation?.resume(returning: authorization)
        continuation = nil
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}

extension PasskeyManager: ASAuthorizationControllerPresentationContextProviding {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor ?? ASPresentationAnchor()
    }
}
