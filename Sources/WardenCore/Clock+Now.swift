import Foundation

/// The seam through which Warden reads the current time. Pass a fixed value in tests.
public typealias NowProvider = @Sendable () -> Date

/// The default ``NowProvider``: the system wall clock.
public let systemNow: NowProvider = { Date() }
