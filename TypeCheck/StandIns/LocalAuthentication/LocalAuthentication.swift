// Stand-in declarations of the LocalAuthentication API that Sources/WardenApple and
// Sources/WardenStorage/Apple/KeychainStore.swift use, with Apple's documented signatures and availability. For
// type-checking on Linux only (TypeCheck/Package.swift); never linked into an app, and nothing is evaluated.
@_exported import Foundation

/// Foundation on Apple platforms: `AutoreleasingUnsafeMutablePointer<NSError?>?`; an `inout` `NSError?` converts
/// to it the same way (`&error`). Apple docs: Foundation, iOS 2.0, macOS 10.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 2.0, macOS 10.0, macCatalyst 13.1, visionOS 1.0, *)
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Apple docs: `LAPolicy` iOS 8.0, macOS 10.10; `.deviceOwnerAuthenticationWithBiometrics` iOS 8.0, macOS 10.12.2;
/// `.deviceOwnerAuthentication` iOS 9.0, macOS 10.11; all Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
public enum LAPolicy: Int, Sendable {
    @available(iOS 8.0, macOS 10.12.2, macCatalyst 13.1, visionOS 1.0, *)
    case deviceOwnerAuthenticationWithBiometrics = 1
    @available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
    case deviceOwnerAuthentication = 2
}

/// Apple docs: `LAError` and `LAError.Code` iOS 8.0, macOS 10.10; `.authenticationFailed` (-1), `.userCancel` (-2),
/// `.userFallback` (-3), `.systemCancel` (-4), `.passcodeNotSet` (-5) and `.notInteractive` (-1004) iOS 8.0,
/// macOS 10.10; `.appCancel` (-9) and `.invalidContext` (-10) iOS 9.0, macOS 10.11; `.biometryNotAvailable` (-6),
/// `.biometryNotEnrolled` (-7) and `.biometryLockout` (-8) iOS 11.0, macOS 10.13; all Mac Catalyst 13.1, visionOS 1.0.
/// Not declared: the deprecated `touchID…` aliases (same raw values), the macOS-only accessory codes
/// (`biometryNotPaired` -12, `biometryDisconnected` -13, `invalidDimensions` -14) and `companionNotAvailable` (-11,
/// iOS 18), which Warden reads by raw value.
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
public struct LAError: Error, Hashable {
    @available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
    public enum Code: Int, Sendable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
        case biometryNotAvailable = -6
        @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
        case biometryNotEnrolled = -7
        @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
        case biometryLockout = -8
        @available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
        case appCancel = -9
        @available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
        case invalidContext = -10
        case notInteractive = -1004
    }
    public var code: Code
}

/// Apple docs: `LAContext`, `canEvaluatePolicy(_:error:)`, `evaluatePolicy(_:localizedReason:reply:)` iOS 8.0,
/// macOS 10.10; `touchIDAuthenticationAllowableReuseDuration` iOS 9.0, macOS 10.12; `localizedReason` iOS 11.0,
/// macOS 10.13; all Mac Catalyst 13.1, visionOS 1.0. Not Sendable, not main-actor isolated.
@available(iOS 8.0, macOS 10.10, macCatalyst 13.1, visionOS 1.0, *)
open class LAContext: NSObject {
    public override init() {}
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { false }
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {}
    /// The async form Swift imports for evaluatePolicy(_:localizedReason:reply:) (same availability).
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { false }
    @available(iOS 9.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval = 0
    @available(iOS 11.0, macOS 10.13, macCatalyst 13.1, visionOS 1.0, *)
    open var localizedReason: String = ""
    /// Apple docs: `func invalidate()`, iOS 9.0, macOS 10.11.
    @available(iOS 9.0, macOS 10.11, macCatalyst 13.1, visionOS 1.0, *)
    open func invalidate() {}
}

/// Apple docs: `let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval`, iOS 9.0, macOS 10.12,
/// Mac Catalyst 13.1, visionOS 1.0.
// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 9.0, macOS 10.12, macCatalyst 13.1, visionOS 1.0, *)
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300
