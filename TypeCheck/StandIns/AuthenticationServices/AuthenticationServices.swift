// Stand-in declarations of the AuthenticationServices API that Sources/WardenApple uses, with Apple's documented
// signatures, isolation and availability (including the SwiftUI overlay's WebAuthenticationSession). For
// type-checking on Linux only (TypeCheck/Package.swift); never linked into an app, and nothing is presented.
@_exported import Foundation
import SwiftUI

#if WARDEN_APPKIT
    import AppKit

    /// Apple docs: `typealias ASPresentationAnchor = NSWindow` on macOS (iOS 12.0, macOS 10.15, Mac Catalyst 13.0,
    /// visionOS 1.0).
    @available(iOS 12.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public typealias ASPresentationAnchor = NSWindow
#else
    import UIKit

    /// Apple docs: `typealias ASPresentationAnchor = UIWindow` on the UIKit platforms (iOS 12.0, macOS 10.15,
    /// Mac Catalyst 13.0, visionOS 1.0).
    @available(iOS 12.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public typealias ASPresentationAnchor = UIWindow
#endif

// MARK: ASWebAuthenticationSession

/// Apple docs: the whole protocol is `@MainActor`; iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// Apple docs: `class ASWebAuthenticationSession` (not main-actor isolated, not Sendable): iOS 12.0, macOS 10.15,
/// Mac Catalyst 12.0 (as the page lists it), visionOS 1.0.
@available(iOS 12.0, macOS 10.15, macCatalyst 12.0, visionOS 1.0, *)
open class ASWebAuthenticationSession: NSObject {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// Apple docs: `class Callback`, `customScheme(_:)`, `https(host:path:)`: iOS 17.4, macOS 14.4,
    /// Mac Catalyst 17.4, visionOS 1.1.
    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
    open class Callback: NSObject {
        @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stand-in") }
        @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
        open class func https(host: String, path: String) -> Self { fatalError("stand-in") }
    }

    /// Apple docs: iOS 12.0, macOS 10.15, Mac Catalyst 12.0, visionOS 1.0 (marked deprecated from the 27.0 SDKs on,
    /// which the check does not model).
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    /// Apple docs: iOS 17.4, macOS 14.4, Mac Catalyst 17.4, visionOS 1.1.
    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
    public init(
        url URL: URL, callback: ASWebAuthenticationSession.Callback, completionHandler: @escaping CompletionHandler
    ) {}

    /// Apple docs: iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    /// Apple docs: iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    open var prefersEphemeralWebBrowserSession = false
    /// Apple docs: `start()` iOS 12.0, macOS 10.15, Mac Catalyst 12.0, visionOS 1.0 (`cancel()` the class's).
    open func start() -> Bool { false }
    open func cancel() {}
}

/// Apple docs: `ASWebAuthenticationSessionError` and `.Code` iOS 12.0, macOS 10.15, Mac Catalyst 12.0, visionOS 1.0;
/// `.canceledLogin` the same; `.presentationContextNotProvided`, `.presentationContextInvalid` iOS 13.0,
/// macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 12.0, macOS 10.15, macCatalyst 12.0, visionOS 1.0, *)
public struct ASWebAuthenticationSessionError: Error, Hashable {
    @available(iOS 12.0, macOS 10.15, macCatalyst 12.0, visionOS 1.0, *)
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
        case presentationContextNotProvided = 2
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
        case presentationContextInvalid = 3
    }
    public var code: Code
}

// MARK: SwiftUI's WebAuthenticationSession (the AuthenticationServices SwiftUI overlay)

/// Apple docs: `@MainActor struct WebAuthenticationSession`, iOS 16.4, macOS 13.3, Mac Catalyst 16.4, visionOS 1.0.
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
@MainActor public struct WebAuthenticationSession {
    /// Apple docs: `struct BrowserSession` (Sendable) with `static var ephemeral` / `shared`; iOS 16.4, macOS 13.3,
    /// Mac Catalyst 16.4, visionOS 1.0.
    @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
    public struct BrowserSession: Sendable {
        public static var ephemeral: WebAuthenticationSession.BrowserSession { BrowserSession() }
        public static var shared: WebAuthenticationSession.BrowserSession { BrowserSession() }
    }

    /// Apple docs: iOS 16.4, macOS 13.3, Mac Catalyst 16.4, visionOS 1.0 (marked deprecated from the 27.0 SDKs on,
    /// except visionOS, which the check does not model).
    @MainActor public func authenticate(
        using url: URL, callbackURLScheme: String,
        preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil
    ) async throws -> URL { url }

    /// Apple docs: iOS 17.4, macOS 14.4, Mac Catalyst 17.4, visionOS 1.1.
    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *)
    @MainActor public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { url }
}

extension EnvironmentValues {
    /// Apple docs: iOS 16.4, macOS 13.3 (the page lists no Mac Catalyst or visionOS version: inherited from iOS, as
    /// the WebAuthenticationSession it returns is documented for Mac Catalyst 16.4 and visionOS 1.0).
    @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}

// MARK: Sign in with Apple

// Apple docs: ASAuthorization, ASAuthorizationRequest, ASAuthorizationOpenIDRequest (`requestedScopes`, `nonce`),
// ASAuthorization.Scope (`fullName`, `email`, `init(rawValue:)`), ASAuthorizationAppleIDRequest,
// ASAuthorizationAppleIDProvider (`createRequest()`, `getCredentialState(forUserID:completion:)` and its async
// form, `credentialRevokedNotification`, `CredentialState` and its four cases): iOS 13.0, macOS 10.15,
// Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationRequest: NSObject {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    open var requestedScopes: [ASAuthorization.Scope]?
    open var nonce: String?
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorization: NSObject {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    public struct Scope: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let fullName = Scope(rawValue: "full_name")
        public static let email = Scope(rawValue: "email")
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationAppleIDProvider: NSObject {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    public enum CredentialState: Int, Sendable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3
    }

    /// Apple: `class let credentialRevokedNotification: NSNotification.Name`.
    public static let credentialRevokedNotification = NSNotification.Name(
        "ASAuthorizationAppleIDProviderCredentialRevokedNotification")

    public override init() {}
    open func createRequest() -> ASAuthorizationAppleIDRequest { ASAuthorizationAppleIDRequest() }
    open func getCredentialState(
        forUserID userID: String,
        completion: @escaping @Sendable (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void
    ) {}
    /// The async form Swift imports for getCredentialState(forUserID:completion:) (same availability).
    open func credentialState(forUserID userID: String) async throws -> ASAuthorizationAppleIDProvider.CredentialState {
        .notFound
    }
}

// MARK: Passkeys

// Apple docs: ASAuthorizationPlatformPublicKeyCredentialProvider, `init(relyingPartyIdentifier:)`,
// `createCredentialRegistrationRequest(challenge:name:userID:)`, `createCredentialAssertionRequest(challenge:)` and the
// two request classes: iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {}
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {}

@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    public init(relyingPartyIdentifier: String) {}
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest() }
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { ASAuthorizationPlatformPublicKeyCredentialAssertionRequest() }
}
