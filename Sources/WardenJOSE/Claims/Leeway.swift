import Foundation

/// A clock-skew allowance, 0–300 seconds (RFC 7519 §4.1.4 allows "a small leeway").
public struct Leeway: Sendable, Hashable {
    /// The allowance in seconds.
    public let seconds: TimeInterval
    /// The default: 60 s.
    public static let standard = Leeway(checked: 60)

    /// A leeway; throws ``JOSEErrorDomain/Code/invalidConfiguration`` outside 0...300 s.
    public init(seconds: TimeInterval) throws(JOSEError) {
        guard seconds.isFinite, (0...300).contains(seconds) else {
            throw JOSEError(.invalidConfiguration, "leeway must be between 0 and 300 seconds")
        }
        self.seconds = seconds
    }

    private init(checked seconds: TimeInterval) { self.seconds = seconds }
}
