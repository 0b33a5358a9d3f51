// Stand-in declarations of the Combine API that Sources/WardenApple and the sample use (`ObservableObject`,
// `@Published`), with Apple's documented signatures and availability (iOS 13.0, macOS 10.15, Mac Catalyst 13.0,
// visionOS 1.0; Apple docs pages of ObservableObject, ObservableObjectPublisher and Published). For type-checking on
// Linux only (TypeCheck/Package.swift); never linked into an app. Combine synthesises `objectWillChange` for a class
// whose properties are `@Published`; the extension below stands for that.
@_exported import Foundation

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public final class ObservableObjectPublisher {
    public init() {}
    public func send() {}
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
    var objectWillChange: ObjectWillChangePublisher { get }
}

@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// Apple docs: `@propertyWrapper struct Published<Value>`; only on properties of classes.
@available(iOS 13.0, macOS 10.15, macCatalyst 13.0, visionOS 1.0, *)
@propertyWrapper public struct Published<Value> {
    private var value: Value
    public init(wrappedValue: Value) { value = wrappedValue }
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }
    public var projectedValue: Published<Value> { self }
}
