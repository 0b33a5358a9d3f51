// Stand-in declarations of the UIKit API that Sources/WardenApple uses, with Apple's documented signatures.
// For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app.
@_exported import Foundation

@MainActor open class UIResponder: NSObject {}

@MainActor open class UIView: UIResponder {
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }

    public init(frame: CGRect) {}
    open var bounds: CGRect { .zero }
    open var backgroundColor: UIColor?
    open var autoresizingMask: AutoresizingMask = []
    open func addSubview(_ view: UIView) {}
    open func removeFromSuperview() {}
}

@MainActor open class UIWindow: UIView {}

open class UIColor: NSObject, @unchecked Sendable {
    open class var systemBackground: UIColor { UIColor() }
}

@MainActor open class UIApplication: UIResponder {
    public nonisolated static let willResignActiveNotification = NSNotification.Name(
        "UIApplicationWillResignActiveNotification")
    public nonisolated static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification")
}
