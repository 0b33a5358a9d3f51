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

/// Apple docs: `@MainActor struct SignInWithAppleButton: View` (the AuthenticationServices SwiftUI overlay), iOS 14.0,
/// macOS 11.0, Mac Catalyst 14.0, visionOS 1.0; `init(_:onRequest:onCompletion:)`, `Label` with `signIn`,
/// `continue`, `signUp`.
@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@MainActor public struct SignInWithAppleButton: View {
    public struct Label: Sendable {
        public static let signIn = Label()
        public static let `continue` = Label()
        public static let signUp = Label()
    }
    public init(
        _ label: SignInWithAppleButton.Label = .signIn,
        onRequest: @escaping (ASAuthorizationAppleIDRequest) -> Void,
        onCompletion: @escaping (Result<ASAuthorization, any Error>) -> Void
    ) {}
    public var body: Never { fatalError("stand-in") }
}

extension EnvironmentValues {
    /// Apple docs: iOS 16.4, macOS 13.3 (the page lists no Mac Catalyst or visionOS version: inherited from iOS, as
    /// the WebAuthenticationSession it returns is documented for Mac Catalyst 16.4 and visionOS 1.0).
    @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}

// MARK: Sign in with Apple

// Apple docs: ASAuthorization (`credential`), ASAuthorizationRequest, ASAuthorizationOpenIDRequest
// (`requestedScopes`, `nonce`, `state`), ASAuthorization.Scope (`fullName`, `email`, `init(rawValue:)`),
// ASAuthorizationAppleIDRequest, ASAuthorizationAppleIDProvider (`createRequest()`,
// `getCredentialState(forUserID:completion:)` and its async form, `credentialRevokedNotification`, `CredentialState`
// and its four cases): iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0. ASAuthorization and
// ASAuthorizationRequest (so every request class below) are listed as conforming to Sendable.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationRequest: NSObject {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    open var requestedScopes: [ASAuthorization.Scope]?
    open var nonce: String?
    /// Apple docs: `var state: String? { get set }`, echoed unmodified in the credential.
    open var state: String?
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorization: NSObject {
    /// Apple docs: `var credential: any ASAuthorizationCredential { get }`.
    open var credential: any ASAuthorizationCredential { fatalError("stand-in") }

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

// Apple docs: ASAuthorizationPlatformPublicKeyCredentialProvider (listed as Sendable), `init(relyingPartyIdentifier:)`,
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

// MARK: Credentials

/// Apple docs: `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol`; iOS 13.0,
/// macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
public protocol ASAuthorizationCredential: NSCopying, NSSecureCoding, NSObjectProtocol {}

/// Apple docs: `protocol ASPublicKeyCredential : ASAuthorizationCredential` with `var credentialID: Data` and
/// `var rawClientDataJSON: Data`; iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    var credentialID: Data { get }
    var rawClientDataJSON: Data { get }
}

/// Apple docs: `protocol ASAuthorizationPublicKeyCredentialRegistration : ASPublicKeyCredential` with
/// `var rawAttestationObject: Data? { get }`; iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    var rawAttestationObject: Data? { get }
}

/// Apple docs: `protocol ASAuthorizationPublicKeyCredentialAssertion : ASPublicKeyCredential` with
/// `var rawAuthenticatorData: Data!`, `var userID: Data!`, `var signature: Data!` (implicitly unwrapped, as imported);
/// iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    var rawAuthenticatorData: Data! { get }
    var userID: Data! { get }
    var signature: Data! { get }
}

/// Apple docs: `class ASAuthorizationAppleIDCredential` (NSObject, ASAuthorizationCredential, Sendable) with
/// `var user: String`, `var state: String?`, `var identityToken: Data?`, `var authorizationCode: Data?`,
/// `var email: String?`, `var fullName: PersonNameComponents?` (all `{ get }`); iOS 13.0, macOS 10.15,
/// Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    // NSCopying / NSSecureCoding (ASAuthorizationCredential): NSObject's on Apple platforms, spelled out for Linux.
    // `init()` is unavailable (`NS_UNAVAILABLE`): the system creates credentials.
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { nil }
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open func encode(with coder: NSCoder) {}
    open class var supportsSecureCoding: Bool { true }
    open var user: String { fatalError("stand-in") }
    open var state: String? { fatalError("stand-in") }
    open var identityToken: Data? { fatalError("stand-in") }
    open var authorizationCode: Data? { fatalError("stand-in") }
    open var email: String? { fatalError("stand-in") }
    open var fullName: PersonNameComponents? { fatalError("stand-in") }
}

/// Apple docs: `class ASAuthorizationPlatformPublicKeyCredentialRegistration` (NSObject,
/// ASAuthorizationPublicKeyCredentialRegistration, Sendable); iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    // NSCopying / NSSecureCoding (ASAuthorizationCredential): NSObject's on Apple platforms, spelled out for Linux.
    // `init()` is unavailable (`NS_UNAVAILABLE`): the system creates credentials.
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { nil }
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open func encode(with coder: NSCoder) {}
    open class var supportsSecureCoding: Bool { true }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var rawAttestationObject: Data? { fatalError("stand-in") }
    /// NSObject's key-value coding (`NSKeyValueCoding`) on Apple platforms, spelled out for Linux.
    open func value(forKey key: String) -> Any? { fatalError("stand-in") }
    /// Apple docs: `var attachment: ASAuthorizationPublicKeyCredentialAttachment { get }`; iOS 16.6, macOS 13.5,
    /// Mac Catalyst 16.6, visionOS 1.0.
    @available(iOS 16.6, macOS 13.5, macCatalyst 16.6, visionOS 1.0, *)
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { fatalError("stand-in") }
}

/// Apple docs: `enum ASAuthorizationPublicKeyCredentialAttachment: Int` (`platform` 0, `crossPlatform` 1; Sendable);
/// iOS 16.6, macOS 13.5, Mac Catalyst 16.6, visionOS 1.0.
@available(iOS 16.6, macOS 13.5, macCatalyst 16.6, visionOS 1.0, *)
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, Sendable {
    case platform = 0
    case crossPlatform = 1
}

/// Apple docs: `class ASAuthorizationPlatformPublicKeyCredentialAssertion` (NSObject,
/// ASAuthorizationPublicKeyCredentialAssertion, Sendable); iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject,
    ASAuthorizationPublicKeyCredentialAssertion
{
    // NSCopying / NSSecureCoding (ASAuthorizationCredential): NSObject's on Apple platforms, spelled out for Linux.
    // `init()` is unavailable (`NS_UNAVAILABLE`): the system creates credentials.
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { nil }
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open func encode(with coder: NSCoder) {}
    open class var supportsSecureCoding: Bool { true }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    open var userID: Data! { fatalError("stand-in") }
    open var signature: Data! { fatalError("stand-in") }
}

// MARK: ASAuthorizationController

/// Apple docs: `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol`; iOS 13.0, macOS 10.15,
/// Mac Catalyst 13.1, visionOS 1.0. Both methods are `optional` in the SDK (same availability); a Swift protocol
/// on Linux cannot say `optional`, so they are requirements here (a mislabelled witness then fails to compile
/// instead of silently never being called).
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
@MainActor public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

/// Apple docs: `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol`;
/// iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
@MainActor public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}

/// Apple docs: `class ASAuthorizationController` (NSObject; not main-actor isolated, not Sendable); iOS 13.0,
/// macOS 10.15, Mac Catalyst 13.1, visionOS 1.0. `init()` is unavailable (`NS_UNAVAILABLE`).
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationController: NSObject {
    /// Apple docs: `struct RequestOptions` (OptionSet, `init(rawValue: UInt)`) and
    /// `static var preferImmediatelyAvailableCredentials`: iOS 16.0, macOS 13.0, Mac Catalyst 16.0, visionOS 1.0.
    @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
        public static var preferImmediatelyAvailableCredentials: ASAuthorizationController.RequestOptions {
            RequestOptions(rawValue: 1 << 0)
        }
    }

    /// Apple docs: `init(authorizationRequests: [ASAuthorizationRequest])`, `var authorizationRequests`,
    /// `weak var delegate`, `weak var presentationContextProvider`, `performRequests()`: the class's availability.
    public init(authorizationRequests: [ASAuthorizationRequest]) { self.authorizationRequests = authorizationRequests }
    @available(*, unavailable) public override init() { fatalError("stand-in") }

    open private(set) var authorizationRequests: [ASAuthorizationRequest]
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    open func performRequests() {}

    /// Apple docs: iOS 16.0, macOS 13.0, Mac Catalyst 16.0, visionOS 1.0.
    @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
    open func performRequests(options: ASAuthorizationController.RequestOptions = []) {}

    /// Apple docs: iOS 16.0, iPadOS 16.0, visionOS 1.0 only; the SDK header says
    /// `API_UNAVAILABLE(macos, macCatalyst, watchos, tvos)`.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(macCatalyst, unavailable)
    open func performAutoFillAssistedRequests() {}

    /// Apple docs: iOS 16.0, macOS 13.0, Mac Catalyst 16.0, visionOS 1.0.
    @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
    open func cancel() {}
}

// MARK: Passwords

/// Apple docs: `class ASAuthorizationPasswordRequest` (an ASAuthorizationRequest); iOS 13.0, macOS 10.15,
/// Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationPasswordRequest: ASAuthorizationRequest {}

/// Apple docs: `class ASAuthorizationPasswordProvider` (NSObject; Sendable from iOS 16.4, below), `init()`,
/// `createRequest()`;
/// iOS 13.0, macOS 10.15, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASAuthorizationPasswordProvider: NSObject {
    public override init() {}
    open func createRequest() -> ASAuthorizationPasswordRequest { ASAuthorizationPasswordRequest() }
}

/// Apple docs: `class ASPasswordCredential` (NSObject, ASAuthorizationCredential, Sendable), `init(user:password:)`,
/// `var user: String { get }`, `var password: String { get }`; iOS 12.0, macOS 10.15, Mac Catalyst 13.1,
/// visionOS 1.0.
@available(iOS 12.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
open class ASPasswordCredential: NSObject, ASAuthorizationCredential {
    public init(user: String, password: String) {}
    // NSCopying / NSSecureCoding (ASAuthorizationCredential): NSObject's on Apple platforms, spelled out for Linux.
    public required init?(coder: NSCoder) { nil }
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open func encode(with coder: NSCoder) {}
    open class var supportsSecureCoding: Bool { true }
    open var user: String { fatalError("stand-in") }
    open var password: String { fatalError("stand-in") }
}

// MARK: Security keys

// Apple docs: ASAuthorizationSecurityKeyPublicKeyCredentialProvider (NSObject, Sendable; `init(relyingPartyIdentifier:)`,
// `createCredentialAssertionRequest(challenge:)`), ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest (an
// ASAuthorizationRequest) and ASAuthorizationSecurityKeyPublicKeyCredentialAssertion (NSObject,
// ASAuthorizationPublicKeyCredentialAssertion, Sendable): iOS 15.0, macOS 12.0, Mac Catalyst 15.0, and no visionOS
// (nor tvOS / watchOS) entry: unavailable on visionOS.
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, *)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {}

@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, *)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialProvider: NSObject {
    public init(relyingPartyIdentifier: String) {}
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest
    { ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest() }
}

@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, *)
@available(visionOS, unavailable)
open class ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: NSObject,
    ASAuthorizationPublicKeyCredentialAssertion
{
    // NSCopying / NSSecureCoding (ASAuthorizationCredential): NSObject's on Apple platforms, spelled out for Linux.
    // `init()` is unavailable (`NS_UNAVAILABLE`): the system creates credentials.
    @available(*, unavailable) public override init() { fatalError("stand-in") }
    public required init?(coder: NSCoder) { nil }
    open func copy(with zone: NSZone? = nil) -> Any { self }
    open func encode(with coder: NSCoder) {}
    open class var supportsSecureCoding: Bool { true }
    open var credentialID: Data { fatalError("stand-in") }
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    open var userID: Data! { fatalError("stand-in") }
    open var signature: Data! { fatalError("stand-in") }
}

// MARK: Errors

/// Apple docs: `struct ASAuthorizationError` and `enum Code` (raw values from the `NS_ERROR_ENUM`): iOS 13.0,
/// macOS 10.15, Mac Catalyst 13.1, visionOS 1.0; `.unknown` … `.failed` the same; `.notInteractive` iOS 15.0,
/// macOS 12.0, Mac Catalyst 15.0, visionOS 1.0; `.matchedExcludedCredential` iOS 18.0, macOS 15.0,
/// Mac Catalyst 18.0, visionOS 2.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
public struct ASAuthorizationError: Error, Hashable {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        @available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
        case notInteractive = 1005
        @available(iOS 18.0, macOS 15.0, macCatalyst 18.0, visionOS 2.0, *)
        case matchedExcludedCredential = 1006
    }
    public var code: Code
}

// MARK: Sendable conformances

// The SDK declares these classes Sendable from iOS 16.4, macOS 13.3, Mac Catalyst 16.4 (and visionOS 1.0) on, in
// extensions (AuthenticationServices.swiftinterface: `@available(iOS 16.4, macOS 13.3, *) extension ... :
// @unchecked Swift.Sendable`): below the package's iOS 16.0 / macOS 13.0 deployment targets they are not, so code that
// needs them to be must sit behind the same availability. Declared the same way here.
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationAppleIDProvider: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPasswordProvider: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationOpenIDRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationAppleIDRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorization: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialProvider: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationAppleIDCredential: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialRegistration: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialAssertion: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASAuthorizationPasswordRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
extension ASPasswordCredential: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, *)
@available(visionOS, unavailable)
extension ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, *)
@available(visionOS, unavailable)
extension ASAuthorizationSecurityKeyPublicKeyCredentialProvider: @unchecked Sendable {}
@available(iOS 16.4, macOS 13.3, macCatalyst 16.4, *)
@available(visionOS, unavailable)
extension ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: @unchecked Sendable {}
