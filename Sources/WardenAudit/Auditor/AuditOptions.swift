import Dispatch
import Foundation
import WardenCore

/// What the auditor skips and how it reports progress.
public struct AuditOptions: Sendable {
    /// Folder names never entered (vendored code and build output).
    public var excludedDirectories: Set<String> = AuditOptions.vendored
    /// Fingerprints of accepted findings (from a baseline file).
    public var baseline: Set<String> = []
    /// Whether findings in test code (test targets, `*Tests/` folders, XCTest and Swift Testing files) are
    /// listed; by default they are counted in ``AuditReport/hiddenInTests`` only.
    public var includeTests = false
    /// Called after each file with (done, total); used for the TTY progress line.
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// The folders skipped by default.
    public static let vendored: Set<String> = [
        "Pods", "Carthage", ".build", "DerivedData", "vendor", "Vendor", "Vendors", "ThirdParty", "third_party",
        "node_modules", ".git", "build", "SourcePackages",
    ]

    /// The defaults: ``AuditOptions/vendored`` folders skipped, no baseline, findings in test code not listed, no
    /// progress.
    public init() {}
}
