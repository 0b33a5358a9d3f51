// Stand-in declarations of the SwiftUI API that Sources/WardenApple uses, with Apple's documented signatures,
// isolation and availability. For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app,
// and nothing is rendered.
//
// Availability: the core view types and modifiers (View, ViewBuilder, EmptyView, ModifiedContent, ViewModifier,
// Alignment, `modifier(_:)`, `frame(minWidth:...)`, ShapeStyle, Shape, `fill(_:style:)`, FillStyle, Rectangle,
// Edge, EnvironmentValues, Environment) are iOS 13.0, macOS 10.15, Mac Catalyst 13.0, visionOS 1.0; the newer ones
// say so on their declaration (Apple docs pages of `overlay(alignment:content:)`, `ignoresSafeArea(_:edges:)`,
// ScenePhase).
@_exported import Combine  // SwiftUI re-exports ObservableObject and @Published
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
    /// Apple docs: iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0 (`if #available` in a view builder).
    @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct AnyView: View {
    nonisolated public init<V: View>(_ view: V) {}
    public var body: Never { fatalError() }
}

/// Apple docs: `@propertyWrapper @MainActor @preconcurrency struct StateObject<ObjectType: ObservableObject>`, iOS
/// 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0.
@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@MainActor @preconcurrency @propertyWrapper public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { wrappedValue = thunk() }
    public var wrappedValue: ObjectType
}

/// Apple docs: `@propertyWrapper @MainActor @preconcurrency struct ObservedObject<ObjectType: ObservableObject>`, iOS
/// 13.0, macOS 10.15, Mac Catalyst 13.0, visionOS 1.0.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@MainActor @preconcurrency @propertyWrapper public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty
{
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public var wrappedValue: ObjectType
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

// MARK: The sample app's (Examples/WardenSample.swiftpm) app structure, controls and modifiers.
// Apple docs: `App`, `Scene`, `SceneBuilder`, `WindowGroup`: iOS 14.0, macOS 11.0, Mac Catalyst 14.0, visionOS 1.0;
// `App` and `Scene` are `@MainActor @preconcurrency` (Xcode 16 SDK). `VStack`, `HorizontalAlignment`, `Text`,
// `Button`, `TupleView`, `State`, `disabled(_:)`, `padding(_:_:)`: iOS 13.0, macOS 10.15, Mac Catalyst 13.0,
// visionOS 1.0. `task(priority:_:)`: iOS 15.0, macOS 12.0, Mac Catalyst 15.0, visionOS 1.0.

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
extension App {
    @MainActor public static func main() {}
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
extension Never: Scene {}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@resultBuilder public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct TupleView<T>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension ViewBuilder {
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> { TupleView() }
    public static func buildBlock<C0: View, C1: View, C2: View>(_ c0: C0, _ c1: C1, _ c2: C2)
        -> TupleView<(C0, C1, C2)>
    { TupleView() }
    public static func buildBlock<C0: View, C1: View, C2: View, C3: View>(_ c0: C0, _ c1: C1, _ c2: C2, _ c3: C3)
        -> TupleView<(C0, C1, C2, C3)>
    { TupleView() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct HorizontalAlignment: Equatable, Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct VStack<Content: View>: View {
    nonisolated public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct Text: View, Equatable {
    nonisolated public init<S: StringProtocol>(_ content: S) {}
    nonisolated public init(verbatim content: String) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public struct Button<Label: View>: View {
    nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension Button where Label == Text {
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@propertyWrapper public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { self.value = value }
    public init(initialValue value: Value) { self.value = value }
    private var value: Value
    public var wrappedValue: Value {
        get { value }
        nonmutating set {}
    }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension State where Value: ExpressibleByNilLiteral {
    public init() { self.value = nil }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol DynamicProperty {}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension View {
    nonisolated public func disabled(_ disabled: Bool) -> some View { self }
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { self }

    @available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { self }
}
