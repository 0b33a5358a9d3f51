// Stand-in declarations of the Security API (and the Foundation networking members that need it) that
// Sources/WardenApple and Sources/WardenStorage/Apple/KeychainStore.swift use, with Apple's documented signatures. For type-checking on Linux only
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
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFTypeRef = AnyObject
public final class CFAllocator: @unchecked Sendable {}
public typealias OSStatus = Int32

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

// MARK: Keychain items (SecItem.h, SecAccessControl.h)

public final class SecAccessControl: @unchecked Sendable {}

public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }

// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecClass: CFString = "class"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
