// Stand-in declarations of the LocalAuthentication API that Sources/WardenApple uses, with Apple's documented
// signatures. For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app.
@_exported import Foundation

/// Foundation on Apple platforms: `AutoreleasingUnsafeMutablePointer<NSError?>?`; an `inout` `NSError?` converts
/// to it the same way (`&error`).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

public enum LAPolicy: Int, Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
}

public struct LAError: Error, Hashable {
    public enum Code: Int, Sendable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        case
            appCancel = -9
        case invalidContext = -10
        case biometryNotAvailable = -6
        case biometryNotEnrolled = -7
        case
            biometryLockout = -8
    }
    public var code: Code
}

open class LAContext: NSObject {
    public override init() {}
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { false }
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {}
    /// The async form Swift imports for evaluatePolicy(_:localizedReason:reply:).
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { false }
}
