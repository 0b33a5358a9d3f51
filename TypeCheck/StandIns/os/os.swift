// Stand-in declarations of the os overlay API that Sources/WardenCore/Apple/OSLogSink.swift uses (`Logger` and its
// `OSLogMessage` string interpolation with `privacy:`), with Apple's documented signatures. For type-checking on Linux
// only (TypeCheck/Package.swift); never linked into an app, and nothing is logged.
//
// Apple docs (developer.apple.com/documentation/os/logger): iOS 14.0, macOS 11.0; the pages list Mac Catalyst and
// visionOS without a version, i.e. inherited from iOS 14.0 (Mac Catalyst 14.0, visionOS 1.0).
// What the stand-in cannot check: the real interpolation requires `privacy:` / `align:` to be compile-time constants
// (the os_log optimizer); here any expression of the right type is accepted.

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct Logger {
    public init(subsystem: String, category: String) {}
    public func debug(_ message: OSLogMessage) {}
    public func info(_ message: OSLogMessage) {}
    public func notice(_ message: OSLogMessage) {}
    public func warning(_ message: OSLogMessage) {}
    public func error(_ message: OSLogMessage) {}
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {}
    public init(stringLiteral value: String) {}
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// Apple: `appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, align:
    /// OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`.
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct OSLogPrivacy {
    public static var `public`: OSLogPrivacy { OSLogPrivacy() }
    public static var `private`: OSLogPrivacy { OSLogPrivacy() }
    public static var sensitive: OSLogPrivacy { OSLogPrivacy() }
    public static var auto: OSLogPrivacy { OSLogPrivacy() }
}

@available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
public struct OSLogStringAlignment {
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}
