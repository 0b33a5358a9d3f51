// Stand-in declarations of the Security API (plus the CoreFoundation and Foundation members that Apple's SDK has and
// swift-corelibs-foundation lacks) that Sources/WardenApple, Sources/WardenCrypto/Apple and
// Sources/WardenStorage/Apple/KeychainStore.swift use, with Apple's documented signatures and availability. For
// type-checking on Linux only (TypeCheck/Package.swift); never linked into an app, and nothing here does any
// cryptography or touches a keychain.
//
// Availability below is copied from the developer.apple.com page of each symbol (the "Apple docs" comments name
// the group); where a page was not in the stored documentation the comment says "SDK header" instead.
@_exported import Foundation

#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif

// MARK: CoreFoundation types (Security re-exports CoreFoundation on Apple platforms)

// On Apple platforms these are toll-free bridged CF classes; the NS classes stand in for them so that the same
// `as` conversions (`Data(...) as CFData`, `date as CFDate`, `array as? [SecCertificate]`) type-check.
// Apple docs: CoreFoundation, iOS 2.0, macOS 10.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFError = NSError
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFArray = NSArray
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFData = NSData
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFDate = NSDate
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFString = NSString
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFDictionary = NSDictionary
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias CFTypeRef = AnyObject
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public final class CFAllocator {}

/// Apple: `func CFErrorCopyDescription(_ err: CFError!) -> CFString!` (CoreFoundation; iOS 2.0, macOS 10.5,
/// Mac Catalyst 13.1, visionOS 1.0 — SDK header CFError.h).
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.5, macCatalyst 13.1, visionOS 1.0, *)
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! { "" }

// MARK: Security base types (SecBase.h)

// Apple docs: the CF types SecKey, SecCertificate, SecTrust, SecPolicy (iOS 2.0, macOS 10.0) and SecAccessControl
// (iOS 8.0, macOS 10.10); none is declared Sendable by the SDK (Warden wraps SecKey in an @unchecked Sendable box).
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public final class SecKey {}
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public final class SecCertificate {}
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public final class SecTrust {}
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public final class SecPolicy {}
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
public final class SecAccessControl {}

@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias OSStatus = Int32

/// Apple: `var errSecSuccess: OSStatus { get }` (SecBase.h; iOS 2.0, macOS 10.0 — SDK header).
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public var errSecSuccess: OSStatus { 0 }

// MARK: Randomness (SecRandom.h)

/// Apple docs: `SecRandomRef`, `kSecRandomDefault`, `SecRandomCopyBytes`: iOS 2.0, macOS 10.7, Mac Catalyst 13.1,
/// visionOS 1.0.
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
public typealias SecRandomRef = OpaquePointer
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef = OpaquePointer(bitPattern: 1)!
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 { 0 }

// MARK: Keys (SecKey.h)

// Apple docs: SecKeyCreateWithData, SecKeyCreateRandomKey, SecKeyCopyPublicKey, SecKeyCopyExternalRepresentation,
// SecKeyCreateSignature, SecKeyVerifySignature, SecKeyAlgorithm: iOS 10.0, macOS 10.12, Mac Catalyst 13.1,
// visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> SecKey?
{ nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{ nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool { false }

/// Apple: `struct SecKeyAlgorithm: Hashable, RawRepresentable, Sendable` over `CFString`.
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public struct SecKeyAlgorithm: Hashable, RawRepresentable, @unchecked Sendable {
    public let rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }

    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm(
        rawValue: "algid:sign:RSA:message-PKCS1v15:SHA1")
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(
        rawValue: "algid:sign:RSA:message-PKCS1v15:SHA256")
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm(
        rawValue: "algid:sign:RSA:message-PKCS1v15:SHA384")
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm(
        rawValue: "algid:sign:RSA:message-PKCS1v15:SHA512")
    // The PSS algorithms: iOS 11.0, macOS 10.13, Mac Catalyst 13.1, visionOS 1.0 (SDK header SecKey.h).
    @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA256")
    @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA384")
    @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA512")
}

// Apple docs: kSecAttrKeyType, kSecAttrKeyClass, kSecAttrKeySizeInBits: iOS 2.0, macOS 10.6; kSecAttrKeyClassPrivate:
// iOS 2.0, macOS 10.7 (kSecAttrKeyTypeRSA, kSecAttrKeyClassPublic the same, SDK header SecItem.h); all Mac Catalyst
// 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"

// The Secure Enclave key wrapper (Sources/WardenStorage/Apple/SecurityEnclaveKeys.swift). SDK header SecKey.h:
// SecKeyCreateEncryptedData, SecKeyCreateDecryptedData iOS 10.0, macOS 10.12;
// kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM iOS 11.0, macOS 10.13;
// kSecAttrKeyTypeECSECPrimeRandom iOS 10.0, macOS 10.12; SecItem.h: kSecAttrTokenID, kSecAttrTokenIDSecureEnclave
// iOS 9.0, macOS 10.12; kSecClassKey, kSecAttrApplicationTag, kSecAttrIsPermanent, kSecReturnRef iOS 2.0, macOS 10.6;
// kSecPrivateKeyAttrs iOS 2.0, macOS 10.8; all Mac Catalyst 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? { nil }
extension SecKeyAlgorithm {
    @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
}
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 10.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 9.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 9.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.8, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"

// MARK: Certificates, policies and trust (SecCertificate.h, SecPolicy.h, SecTrust.h)

// Apple docs: SecCertificateCreateWithData, SecCertificateCopyData, SecPolicyCreateBasicX509,
// SecTrustSetAnchorCertificatesOnly: iOS 2.0, macOS 10.6; SecTrustCreateWithCertificates,
// SecTrustSetAnchorCertificates, SecTrustSetVerifyDate: iOS 2.0, macOS 10.3; SecTrustSetNetworkFetchAllowed: iOS 7.0,
// macOS 10.9; SecTrustEvaluateWithError: iOS 12.0, macOS 10.14 (all Mac Catalyst 13.1, visionOS 1.0);
// SecTrustCopyCertificateChain: iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? { nil }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { NSData() }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy() }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.3, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.3, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.3, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 7.0, macOS 10.9, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 12.0, macOS 10.14, macCatalyst 13.1, visionOS 1.0, *)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool { false }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { nil }

// MARK: Foundation members of Apple's Foundation that swift-corelibs-foundation lacks

// They live here because this module is what the Apple-only files import next to Foundation; on Apple platforms they
// are Foundation's own (URL Loading System, FileManager). swift-corelibs-foundation declares
// `NSURLAuthenticationMethodServerTrust` `@available(*, unavailable)` and `URLProtectionSpace.serverTrust` as `Any?`;
// Apple's (a usable String, a `SecTrust?`) are declared here and shadow them for code that imports Security.

extension URLProtectionSpace {
    /// Apple docs: `var serverTrust: SecTrust? { get }`, iOS 3.0, macOS 10.6, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 3.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
    public var serverTrust: SecTrust? { nil }
}

extension URLCredential {
    /// Apple docs: `init(trust: SecTrust)`, iOS 3.0, macOS 10.6, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 3.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
    public convenience init(trust: SecTrust) { self.init(user: "", password: "", persistence: .none) }
}

/// Apple docs: `let NSURLAuthenticationMethodServerTrust: String`, iOS 3.0, macOS 10.6, Mac Catalyst 13.1,
/// visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 3.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"

extension FileManager {
    /// Apple docs: `func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?`,
    /// iOS 7.0, macOS 10.8, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 7.0, macOS 10.8, macCatalyst 13.1, visionOS 1.0, *)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }
}

// MARK: Keychain items (SecItem.h, SecAccessControl.h)

/// Apple docs: `SecAccessControlCreateFlags` iOS 8.0, macOS 10.10; `.biometryCurrentSet` iOS 11.3, macOS 10.13.4
/// (`.biometryAny` the same, `.userPresence` iOS 8.0, macOS 10.10, `.devicePasscode` iOS 9.0, macOS 10.11 — SDK header
/// SecAccessControl.h); all Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    @available(iOS 11.3, macOS 10.13.4, macCatalyst 13.1, visionOS 1.0, *)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    @available(iOS 11.3, macOS 10.13.4, macCatalyst 13.1, visionOS 1.0, *)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    @available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// Apple docs: iOS 9.0, macOS 10.12.1, Mac Catalyst 13.1, visionOS 1.0 (Secure Enclave key use).
    @available(iOS 9.0, macOS 10.12.1, macCatalyst 13.1, visionOS 1.0, *)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}

/// Apple docs: iOS 8.0, macOS 10.10, Mac Catalyst 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { nil }

// Apple docs: SecItemCopyMatching iOS 2.0, macOS 10.6 (SecItemAdd, SecItemUpdate, SecItemDelete the same, SDK header
// SecItem.h); all Mac Catalyst 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }

// Apple docs: kSecClassGenericPassword iOS 2.0, macOS 10.7; kSecAttrAccessGroup iOS 3.0, macOS 10.9;
// kSecAttrAccessibleWhenUnlockedThisDeviceOnly and kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly iOS 4.0,
// macOS 10.9; kSecAttrAccessControl and kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly iOS 8.0, macOS 10.10;
// kSecUseAuthenticationContext iOS 9.0, macOS 10.11; kSecUseDataProtectionKeychain iOS 13.0, macOS 10.15.
// SDK header SecItem.h: kSecClass, kSecAttrService, kSecAttrAccount, kSecValueData, kSecReturnData,
// kSecReturnAttributes, kSecMatchLimit, kSecMatchLimitOne, kSecMatchLimitAll iOS 2.0, macOS 10.6;
// kSecAttrAccessible iOS 4.0, macOS 10.9. All Mac Catalyst 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecClass: CFString = "class"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.7, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 3.0, macOS 10.9, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 4.0, macOS 10.9, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 4.0, macOS 10.9, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 4.0, macOS 10.9, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 2.0, macOS 10.6, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 13.0, macOS 10.15, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
