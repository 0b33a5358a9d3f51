// Stand-in declarations of the Security API (and the Foundation networking members that need it) that
// Sources/WardenApple uses, with Apple's documented signatures. For type-checking on Linux only
// (TypeCheck/Package.swift); never linked into an app.
@_exported import Foundation

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

public final class SecTrust: @unchecked Sendable {}
public final class SecCertificate: @unchecked Sendable {}
public typealias CFError = NSError
public typealias CFArray = NSArray
public typealias CFData = NSData

// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }

extension URLProtectionSpace {
    /// Apple platforms: the server's trust object for NSURLAuthenticationMethodServerTrust challenges.
    public var serverTrust: SecTrust? { nil }
}

extension URLCredential {
    /// Apple platforms: a credential that accepts the given server trust.
    public convenience init(trust: SecTrust) { self.init(user: "", password: "", persistence: .none) }
}

/// Apple platforms: the authentication method of server-trust challenges (unavailable in swift-corelibs-foundation).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"
