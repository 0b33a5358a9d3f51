// Stand-in declarations of the AuthenticationServices API that Sources/WardenApple uses, with Apple's documented
// signatures (including the SwiftUI overlay's WebAuthenticationSession). For type-checking on Linux only
// (TypeCheck/Package.swift); never linked into an app.
@_exported import Foundation
import SwiftUI
import UIKit

public typealias ASPresentationAnchor = UIWindow

public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    @MainActor func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

open class ASWebAuthenticationSession: NSObject {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// iOS 17.4, macOS 14.4.
    open class Callback: NSObject {
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stand-in") }
        open class func https(host: String, path: String) -> Self { fatalError("stand-in") }
    }

    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}
    public init(
        url URL: URL, callback: ASWebAuthenticationSession.Callback, completionHandler: @escaping CompletionHandler
    ) {}

    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    open var prefersEphemeralWebBrowserSession = false
    open func start() -> Bool { false }
    open func cancel() {}
}

public struct ASWebAuthenticationSessionError: Error, Hashable {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }
    public var code: Code
}

@MainActor public struct WebAuthenticationSession {
    public enum BrowserSession: Sendable {
        case ephemeral, shared
    }

    @MainActor public func authenticate(
        using url: URL, callbackURLScheme: String,
        preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil
    ) async throws -> URL { url }

    /// iOS 17.4, macOS 14.4.
    @MainActor public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { url }
}

extension EnvironmentValues {
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}

open class ASAuthorizationRequest: NSObject {}

open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    open var requestedScopes: [ASAuthorization.Scope]?
    open var nonce: String?
}

open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

open class ASAuthorization: NSObject {
    public struct Scope: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let fullName = Scope(rawValue: "full_name")
        public static let email = Scope(rawValue: "email")
    }
}

open class ASAuthorizationAppleIDProvider: NSObject {
    public enum CredentialState: Int, Sendable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3
    }

    public static let credentialRevokedNotification = NSNotification.Name(
        "ASAuthorizationAppleIDProviderCredentialRevokedNotification")

    public override init() {}
    open func createRequest() -> ASAuthorizationAppleIDRequest { ASAuthorizationAppleIDRequest() }
    open func getCredentialState(
        forUserID userID: String,
        completion: @escaping @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void
    ) {}
    /// The async form Swift imports for getCredentialState(forUserID:completion:).
    open func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState {
        .notFound
    }
}

open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {}
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {}

open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    public init(relyingPartyIdentifier: String) {}
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest() }
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { ASAuthorizationPlatformPublicKeyCredentialAssertionRequest() }
}
