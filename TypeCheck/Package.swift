// swift-tools-version:6.0
// The Apple type-check: compiles Warden's library modules on Linux as they are compiled for ONE Apple platform,
// against stand-ins of the Apple frameworks they use (StandIns/<Framework>, signatures and availability copied from
// Apple's documentation). Run it through `scripts/typecheck-apple`, which generates the per-platform stand-ins
// (Generated/<platform>/, availability rewritten for that platform and its deployment target) and then checks the
// build log; never build this package by hand.
//
// What it proves, per declared platform (iOS 16, macOS 13, Mac Catalyst 16, visionOS 1):
// - every module of the `Warden`/`WardenApple` products compiles in Swift 6 language mode with that platform's
//   build settings (WARDEN_APPLE instead of WARDEN_OPENSSL, so the CryptoKit/Security backend, KeychainStore,
//   OSLogSink and the whole Apple layer are compiled; WARDEN_LOOPBACK on macOS only; WARDEN_UIKIT or
//   WARDEN_APPKIT);
// - every call names an API the stand-ins declare with the right labels, types, optionality, isolation and
//   async/throws;
// - no API that Apple marks unavailable on that platform is used (a compile error), and no API introduced after
//   the deployment target is used outside an `if #available` / `@available` scope (checked on the log).
// The real-SDK probe (`../shared/ios-sdk/typecheck.sh`, run by scripts/typecheck-apple when IOS_SDK_MIRROR is set)
// compiles the same modules against the real iOS 16.5 SDK. That SDK predates the concurrency annotations of the
// Xcode 16 SDKs this package needs (the presentation-context protocols are `@MainActor`, CryptoKit keys `Sendable`
// there), so in Swift 6 mode it reports isolation warnings the stand-ins — which follow the Xcode 16 SDKs — do not;
// those are notes about that SDK. The stand-ins copy Apple's own gating where it matters: the AuthenticationServices
// classes are `Sendable` only from iOS 16.4 / macOS 13.3 (as in the SDK's swiftinterface). No source gates on
// `canImport(_version:)`: what differs between SDK generations (the passkey registration's `attachment`) is read by key.
// What it cannot prove: that the stand-ins match the real SDK (they are reviewed against Apple's documentation),
// the Darwin branches of `#if canImport(Glibc)` socket code, and Foundation differences between Apple's
// Foundation and swift-corelibs-foundation.
import Foundation
import PackageDescription

let platform = ProcessInfo.processInfo.environment["WARDEN_TYPECHECK_PLATFORM"] ?? "iOS"
let generated = "Generated/\(platform)"
let appKit = platform == "macOS"
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
/// The same conditions the root Package.swift sets for this platform.
let defines: [SwiftSetting] =
    [.define("WARDEN_APPLE"), .define(appKit ? "WARDEN_APPKIT" : "WARDEN_UIKIT")]
    + (platform == "macOS" ? [.define("WARDEN_LOOPBACK")] : [])
    + (platform == "macCatalyst" ? [.define("WARDEN_CATALYST")] : [])
    + (platform == "visionOS" ? [.define("WARDEN_VISIONOS")] : [])
    + [.define("WARDEN_TYPECHECK_\(platform.uppercased())")]

func standIn(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "\(generated)/\(name)", swiftSettings: strict + defines)
}
func mirror(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "Mirror/\(name)", swiftSettings: strict + defines)
}

let windowing: Target.Dependency = appKit ? "AppKit" : "UIKit"
let package = Package(
    name: "WardenAppleTypeCheck",
    targets: [
        standIn(appKit ? "AppKit" : "UIKit"),
        standIn("Combine"),
        standIn("SwiftUI", ["Combine"]),
        standIn("os"),
        standIn("Security"),
        standIn("CryptoKit", ["Security", "LocalAuthentication"]),
        standIn("LocalAuthentication"),
        standIn("Network"),
        // The overlay version of an Xcode 16 SDK (iOS 18: 7620), so `canImport(AuthenticationServices, _version:)`
        // gates take the branch every Xcode that can build the package compiles.
        .target(
            name: "AuthenticationServices", dependencies: [windowing, "SwiftUI"],
            path: "\(generated)/AuthenticationServices",
            swiftSettings: strict + defines + [.unsafeFlags(["-user-module-version", "7620"])]),
        mirror("WardenCore", ["os"]),
        mirror("WardenCrypto", ["WardenCore", "CryptoKit", "Security"]),
        mirror("WardenJOSE", ["WardenCore", "WardenCrypto"]),
        mirror("WardenOAuth", ["WardenCore", "WardenCrypto", "WardenJOSE", "Security"]),
        mirror("WardenStorage", ["WardenCore", "WardenCrypto", "Security", "LocalAuthentication"]),
        mirror("WardenSession", ["WardenCore", "WardenOAuth", "WardenJOSE", "WardenStorage"]),
        mirror("WardenPasskeys", ["WardenCore", "WardenCrypto", "WardenJOSE"]),
        mirror(
            "WardenApple",
            [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenSession", "WardenStorage",
                "WardenPasskeys", windowing, "SwiftUI", "Combine", "AuthenticationServices", "LocalAuthentication",
                "Security", "CryptoKit", "Network",
            ]),
        // The README's Apple-only examples (Tests/ReadmeSnippetTests/Apple), so they compile per platform too.
        .target(
            name: "ReadmeAppleSnippets",
            dependencies: [
                "WardenApple", "WardenOAuth", "WardenSession", "WardenStorage", "AuthenticationServices", windowing,
                "SwiftUI",
            ],
            path: "Mirror/ReadmeAppleSnippets",
            // Examples bind values to show them (as in the root package's ReadmeSnippetTests).
            swiftSettings: strict + defines + [.unsafeFlags(["-suppress-warnings"])]),
        mirror(
            "Warden",
            [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenStorage", "WardenSession",
                "WardenPasskeys", "WardenApple",
            ]),
    ]
        // The sample app (Examples/WardenSample.swiftpm/Sources), through the public API only, as its own module; a
        // UIKit/SwiftUI app, so every platform but macOS (Mac Catalyst runs it).
        + (appKit
            ? []
            : [
                .target(
                    name: "WardenSample", dependencies: ["Warden", "WardenApple", "UIKit", "SwiftUI"],
                    path: "Mirror/WardenSample", swiftSettings: strict + defines)
            ])
)
