// Stand-in declarations of the CryptoKit API that Sources/WardenCrypto/Apple uses (exactly those members), with
// Apple's documented signatures, Sendable conformances and availability. For type-checking on Linux only
// (TypeCheck/Package.swift); never linked into an app, and the bodies compute nothing.
//
// Apple docs (developer.apple.com/documentation/cryptokit): every type and member below is iOS 13.0, macOS 10.15,
// Mac Catalyst 13.0, visionOS 1.0, except `derRepresentation` (iOS 14.0, macOS 11.0, Mac Catalyst 14.0,
// visionOS 1.0). The key types conform to Sendable ("Conforms To" on their pages).
import Foundation
import LocalAuthentication
import Security

// MARK: Digests

/// The protocol of `SHA256`, `SHA384`, `SHA512` and `Insecure.SHA1` (only what `HMAC<H>` and `hash(data:)` need).
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol HashFunction {
    associatedtype Digest: CryptoKit.Digest
    static func hash<D: DataProtocol>(data: D) -> Digest
}

/// Apple: `protocol Digest : ContiguousBytes, CustomStringConvertible, Hashable, Sequence where Element == UInt8`.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol Digest: ContiguousBytes, CustomStringConvertible, Hashable, Sequence where Element == UInt8 {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA256Digest: Digest {
    let bytes: [UInt8]
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    public var description: String { "SHA256 digest" }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA384Digest: Digest {
    let bytes: [UInt8]
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    public var description: String { "SHA384 digest" }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA512Digest: Digest {
    let bytes: [UInt8]
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    public var description: String { "SHA512 digest" }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA256: HashFunction, Sendable {
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest { SHA256Digest(bytes: []) }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA384: HashFunction, Sendable {
    public static func hash<D: DataProtocol>(data: D) -> SHA384Digest { SHA384Digest(bytes: []) }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SHA512: HashFunction, Sendable {
    public static func hash<D: DataProtocol>(data: D) -> SHA512Digest { SHA512Digest(bytes: []) }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum Insecure {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public struct SHA1Digest: Digest {
        let bytes: [UInt8]
        public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }
        public var description: String { "SHA1 digest" }
    }

    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public struct SHA1: HashFunction, Sendable {
        public static func hash<D: DataProtocol>(data: D) -> SHA1Digest { SHA1Digest(bytes: []) }
    }
}

// MARK: HMAC

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SymmetricKey: ContiguousBytes, Sendable {
    let bytes: [UInt8]
    public init<D: ContiguousBytes>(data: D) { bytes = data.withUnsafeBytes { Array($0) } }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}

/// Apple: `protocol MessageAuthenticationCode : ContiguousBytes, CustomStringConvertible, Hashable, Sequence
/// where Element == UInt8`.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol MessageAuthenticationCode: ContiguousBytes, CustomStringConvertible, Hashable, Sequence
where Element == UInt8 {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode, Sendable {
    let bytes: [UInt8]
    public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    public var description: String { "HMAC" }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct HMAC<H: HashFunction> {
    public typealias MAC = HashedAuthenticationCode<H>
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey)
        -> HashedAuthenticationCode<H>
    { HashedAuthenticationCode(bytes: []) }
}

// MARK: NIST curves (P256 / P384 / P521) and Curve25519

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum P256 {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum Signing {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct ECDSASignature: Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws {}
            public var rawRepresentation: Data { Data() }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PublicKey: Sendable {
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {}
            public var x963Representation: Data { Data() }
            @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
            public var derRepresentation: Data { Data() }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { false }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) {}
            public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws {}
            public var publicKey: PublicKey { fatalError("stand-in") }
            public var rawRepresentation: Data { Data() }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("stand-in") }
        }
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum P384 {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum Signing {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct ECDSASignature: Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws {}
            public var rawRepresentation: Data { Data() }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PublicKey: Sendable {
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {}
            public var x963Representation: Data { Data() }
            @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
            public var derRepresentation: Data { Data() }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { false }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) {}
            public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws {}
            public var publicKey: PublicKey { fatalError("stand-in") }
            public var rawRepresentation: Data { Data() }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("stand-in") }
        }
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum P521 {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum Signing {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct ECDSASignature: Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws {}
            public var rawRepresentation: Data { Data() }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PublicKey: Sendable {
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {}
            public var x963Representation: Data { Data() }
            @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
            public var derRepresentation: Data { Data() }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { false }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) {}
            public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws {}
            public var publicKey: PublicKey { fatalError("stand-in") }
            public var rawRepresentation: Data { Data() }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("stand-in") }
        }
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum Curve25519 {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum Signing {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {}
            public var rawRepresentation: Data { Data() }
            public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
                false
            }
        }

        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PrivateKey: Sendable {
            public init() {}
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {}
            public var publicKey: PublicKey { fatalError("stand-in") }
            public var rawRepresentation: Data { Data() }
            public func signature<D: DataProtocol>(for data: D) throws -> Data { Data() }
        }
    }
}

// MARK: AEAD, HKDF and key agreement (Sources/WardenCrypto/Apple/AEAD+CryptoKit.swift)
// Apple docs: AES.GCM, ChaChaPoly, their Nonce and SealedBox, Curve25519.KeyAgreement and SharedSecret: iOS 13.0,
// macOS 10.15, Mac Catalyst 13.0, visionOS 1.0; HKDF: iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0
// (developer.apple.com/documentation/cryptokit/hkdf).

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum AES {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum GCM {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct Nonce: Sendable {
            public init<D: DataProtocol>(data: D) throws {}
        }
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct SealedBox: Sendable {
            public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws {}
            public var ciphertext: Data { Data() }
            public var tag: Data { Data() }
        }
        public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
            _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil,
            authenticating authenticatedData: AuthenticatedData
        ) throws -> SealedBox { fatalError("stand-in") }
        public static func open<AuthenticatedData: DataProtocol>(
            _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
        ) throws -> Data { Data() }
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum ChaChaPoly {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public struct Nonce: Sendable {
        public init<D: DataProtocol>(data: D) throws {}
    }
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public struct SealedBox: Sendable {
        public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws {}
        public var ciphertext: Data { Data() }
        public var tag: Data { Data() }
    }
    public static func seal<Plaintext: DataProtocol, AuthenticatedData: DataProtocol>(
        _ message: Plaintext, using key: SymmetricKey, nonce: Nonce? = nil,
        authenticating authenticatedData: AuthenticatedData
    ) throws -> SealedBox { fatalError("stand-in") }
    public static func open<AuthenticatedData: DataProtocol>(
        _ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
    ) throws -> Data { Data() }
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct HKDF<H: HashFunction> {
    public static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, info: Info, outputByteCount: Int
    ) -> SymmetricKey { SymmetricKey(data: [UInt8]()) }
}

/// Apple: `struct SharedSecret : ContiguousBytes`.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct SharedSecret: ContiguousBytes, Sendable {
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try [UInt8]().withUnsafeBytes(body)
    }
}

extension Curve25519 {
    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum KeyAgreement {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {}
            public var rawRepresentation: Data { Data() }
        }
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public struct PrivateKey: Sendable {
            public init() {}
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws {}
            public var publicKey: PublicKey { fatalError("stand-in") }
            public func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret {
                SharedSecret()
            }
        }
    }
}

// MARK: Secure Enclave (SecureEnclaveDPoPKey)
// Apple docs: SecureEnclave, isAvailable, SecureEnclave.P256.Signing.PrivateKey and its members: iOS 13.0, macOS 10.15,
// Mac Catalyst 13.0, visionOS 1.0 (developer.apple.com/documentation/cryptokit/secureenclave).

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum SecureEnclave {
    public static var isAvailable: Bool { false }

    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public enum P256 {
        @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
        public enum Signing {
            @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
            public struct PrivateKey {
                public init(
                    compactRepresentable: Bool = true,
                    accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                        nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
                    authenticationContext: LAContext? = nil
                ) throws {}
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {}
                public var dataRepresentation: Data { Data() }
                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("stand-in") }
                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature {
                    fatalError("stand-in")
                }
            }
        }
    }
}
