// Stand-in declarations of the Network framework API that Sources/WardenApple/NetworkPathObserver.swift uses, with
// Apple's documented signatures. For type-checking on Linux only (TypeCheck/Package.swift); never linked into an app.
//
// Apple docs (developer.apple.com/documentation/network/nwpathmonitor): iOS 12.0, macOS 10.14, Mac Catalyst 13.1
// (the Catalyst floor), visionOS 1.0; `pathUpdateHandler` is `@preconcurrency final var pathUpdateHandler:
// (@Sendable (NWPath) -> Void)?`.
import Dispatch

@available(iOS 12.0, macOS 10.14, macCatalyst 13.1, visionOS 1.0, *)
public final class NWPathMonitor {
    public init() {}
    public final var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    public final var currentPath: NWPath { NWPath(status: .unsatisfied) }
    public final func start(queue: DispatchQueue) {}
    public final func cancel() {}
}

@available(iOS 12.0, macOS 10.14, macCatalyst 13.1, visionOS 1.0, *)
public struct NWPath: Sendable {
    public enum Status: Sendable, Equatable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }
    public let status: Status
}
