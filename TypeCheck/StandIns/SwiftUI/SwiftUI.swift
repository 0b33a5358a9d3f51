// Stand-in declarations of the SwiftUI API that Sources/WardenApple uses, with Apple's documented signatures.
// For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app.
@_exported import Foundation

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError() }
}

@resultBuilder public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
}

public struct ModifiedContent<Content, Modifier>: View {
    public var body: Never { fatalError() }
}

@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Self.Content) -> Self.Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError() }
}

public enum Alignment: Sendable { case center }

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent() }
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { self }
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { self }
    public func ignoresSafeArea() -> some View { self }
}

public protocol ShapeStyle: Sendable {}

public struct BackgroundStyle: ShapeStyle {
    public init() {}
}

extension ShapeStyle where Self == BackgroundStyle {
    public static var background: BackgroundStyle { BackgroundStyle() }
}

public protocol Shape: View, Sendable {}

extension Shape {
    public func fill<S: ShapeStyle>(_ content: S) -> some View { EmptyView() }
}

public struct Rectangle: Shape {
    public init() {}
    public var body: Never { fatalError() }
}

public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

public struct EnvironmentValues: Sendable {
    public var scenePhase: ScenePhase { .active }
}

@propertyWrapper public struct Environment<Value>: Sendable {
    public init(_ keyPath: any KeyPath<EnvironmentValues, Value> & Sendable) {}
    public var wrappedValue: Value { fatalError("stand-in") }
}
