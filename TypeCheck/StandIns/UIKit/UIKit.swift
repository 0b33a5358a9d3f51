// Stand-in declarations of the UIKit API that Sources/WardenApple uses, with Apple's documented signatures, isolation
// and availability. For type-checking on Linux only (TypeCheck/Package.swift; the iOS, Mac Catalyst and visionOS
// builds — macOS compiles the AppKit stand-in instead); never linked into an app.
//
// Apple docs: UIResponder, UIView (`init(frame:)`, `bounds`, `backgroundColor`, `autoresizingMask`, `addSubview(_:)`,
// `removeFromSuperview()`), UIView.AutoresizingMask, UIWindow, UIColor, UIApplication and its
// `willResignActiveNotification` / `didBecomeActiveNotification`: iOS 2.0, Mac Catalyst 13.1, visionOS 1.0;
// `UIColor.systemBackground`: iOS 13.0, Mac Catalyst 13.1, visionOS 1.0. UIResponder and its subclasses are
// `@MainActor`; UIColor is Sendable.
@_exported import Foundation

@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIResponder: NSObject {}

@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIView: UIResponder {
    @available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }

    public init(frame: CGRect) {}
    public override convenience init() { self.init(frame: .zero) }
    open var bounds: CGRect = .zero
    /// Apple docs: `UIView.window`, iOS 2.0.
    open var window: UIWindow? { nil }
    open var backgroundColor: UIColor?
    open var autoresizingMask: AutoresizingMask = []
    open func addSubview(_ view: UIView) {}
    open func removeFromSuperview() {}
}

/// Apple docs: `UIWindow.windowScene` iOS 13.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIWindow: UIView {
    @available(iOS 13.0, macCatalyst 13.1, visionOS 1.0, *)
    open var windowScene: UIWindowScene?
    /// Apple docs: `isKeyWindow`, iOS 2.0.
    open var isKeyWindow: Bool { false }
}

/// Apple docs: `UIViewController` and its `view` (`UIView!`), iOS 2.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIViewController: UIResponder {
    open var view: UIView!
}

/// Apple docs: `UIScene` (a `UIResponder`, `@MainActor`) and its `willDeactivateNotification`,
/// `didActivateNotification`, `didEnterBackgroundNotification`, `willEnterForegroundNotification` (posted with the
/// scene as the object): iOS 13.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIScene: UIResponder {
    public nonisolated static let willDeactivateNotification = NSNotification.Name("UISceneWillDeactivateNotification")
    public nonisolated static let didActivateNotification = NSNotification.Name("UISceneDidActivateNotification")
    public nonisolated static let didEnterBackgroundNotification = NSNotification.Name(
        "UISceneDidEnterBackgroundNotification")
    public nonisolated static let willEnterForegroundNotification = NSNotification.Name(
        "UISceneWillEnterForegroundNotification")
}

/// Apple docs: `UIWindowScene`, iOS 13.0, Mac Catalyst 13.1, visionOS 1.0.
@available(iOS 13.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIWindowScene: UIScene {
    /// Apple docs: `windows`, iOS 13.0, Mac Catalyst 13.1, visionOS 1.0 (not `UIApplication.windows`, deprecated
    /// in iOS 15).
    open var windows: [UIWindow] { [] }
}

@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
open class UIColor: NSObject, @unchecked Sendable {
    @available(iOS 13.0, macCatalyst 13.1, visionOS 1.0, *)
    open class var systemBackground: UIColor { UIColor() }
}

@available(iOS 2.0, macCatalyst 13.1, visionOS 1.0, *)
@MainActor open class UIApplication: UIResponder {
    /// Apple docs: `shared`, iOS 2.0 — unavailable in app extensions (`NS_EXTENSION_UNAVAILABLE_IOS`): library code
    /// must not use it.
    open class var shared: UIApplication { UIApplication() }
    /// Apple docs: `connectedScenes`, iOS 13.0, Mac Catalyst 13.1, visionOS 1.0.
    @available(iOS 13.0, macCatalyst 13.1, visionOS 1.0, *)
    open var connectedScenes: Set<UIScene> { [] }
    public nonisolated static let willResignActiveNotification = NSNotification.Name(
        "UIApplicationWillResignActiveNotification")
    public nonisolated static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification")
    /// Apple docs: `didEnterBackgroundNotification` / `willEnterForegroundNotification`, iOS 4.0, Mac Catalyst 13.1,
    /// visionOS 1.0.
    @available(iOS 4.0, macCatalyst 13.1, visionOS 1.0, *)
    public nonisolated static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification")
    @available(iOS 4.0, macCatalyst 13.1, visionOS 1.0, *)
    public nonisolated static let willEnterForegroundNotification = NSNotification.Name(
        "UIApplicationWillEnterForegroundNotification")
}
