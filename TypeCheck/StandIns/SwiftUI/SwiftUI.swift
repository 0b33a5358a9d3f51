// Stand-in declarations of the SwiftUI API that Sources/WardenApple uses, with Apple's documented signatures,
// isolation and availability. For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app,
// and nothing is rendered.
//
// Availability: the core view types and modifiers (View, ViewBuilder, EmptyView, ModifiedContent, ViewModifier,
// Alignment, `modifier(_:)`, `frame(minWidth:...)`, ShapeStyle, Shape, `fill(_:style:)`, FillStyle, Rectangle,
// Edge, EnvironmentValues, Environment) are iOS 13.0, macOS 10.15, Mac Catalyst 13.0, visionOS 1.0; the newer ones
// say so on their declaration (Apple docs pages of `overlay(alignment:content:)`, `ignoresSafeArea(_:edges:)`,
// ScenePhase).
@_exported import Foundation

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension Never: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@resultBuilder public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct ModifiedContent<Content, Modifier>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Self.Content) -> Self.Body
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct Alignment: Sendable {
    public static let center = Alignment()
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public enum Edge: Int8, Sendable {
    case top, leading, bottom, trailing

    @available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let all = Set(rawValue: 0xF)
    }
}

/// Apple docs: `SafeAreaRegions`, iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0.
@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let all = SafeAreaRegions(rawValue: 0x3)
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension View {
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent() }

    /// Apple docs: iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.
    @available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
    nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V)
        -> some View
    { self }

    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { self }

    /// Apple docs: iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0.
    @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
    nonisolated public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View {
        self
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol ShapeStyle: Sendable {}

/// `ShapeStyle.background` / BackgroundStyle: iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0 (SDK; the
/// stored documentation has no page for it).
@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
public struct BackgroundStyle: ShapeStyle {
    public init() {}
}

@available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
extension ShapeStyle where Self == BackgroundStyle {
    public static var background: BackgroundStyle { BackgroundStyle() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct FillStyle: Equatable, Sendable {
    public init(eoFill: Bool = false, antialiased: Bool = true) {}
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol Shape: View, Sendable {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension Shape {
    nonisolated public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> some View {
        EmptyView()
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct Rectangle: Shape {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

/// Apple docs: iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0 (`EnvironmentValues.scenePhase` the same).
@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct EnvironmentValues: Sendable {
    @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
    public var scenePhase: ScenePhase { .active }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@propertyWrapper public struct Environment<Value> {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError("stand-in") }
}
