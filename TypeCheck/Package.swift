// swift-tools-version:6.0
// Type-checks Sources/WardenApple (and, through the root package, WardenStorage's KeychainStore) on Linux against
// stand-ins of the Apple framework declarations they use (StandIns/<Framework>): `scripts/typecheck-apple`. The stand-ins copy the signatures from Apple's documentation;
// they never ship and never run. What they prove: every call in the Apple files names a real API with the right
// labels, types, optionality and async/throws, and the files compile in Swift 6 language mode (availability is
// not checked: on Linux the compiler ignores iOS/macOS availability).
import Foundation
import PackageDescription

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "WardenAppleTypeCheck",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "UIKit", path: "StandIns/UIKit", swiftSettings: strict),
        .target(name: "SwiftUI", path: "StandIns/SwiftUI", swiftSettings: strict),
        .target(
            name: "AuthenticationServices", dependencies: ["UIKit", "SwiftUI"],
            path: "StandIns/AuthenticationServices", swiftSettings: strict),
        .target(name: "LocalAuthentication", path: "StandIns/LocalAuthentication", swiftSettings: strict),
        .target(name: "Security", path: "StandIns/Security", swiftSettings: strict),
        .target(
            name: "WardenAppleChecked",
            dependencies: [
                "UIKit", "SwiftUI", "AuthenticationServices", "LocalAuthentication", "Security",
                .product(name: "WardenCore", package: root), .product(name: "WardenCrypto", package: root),
                .product(name: "WardenJOSE", package: root), .product(name: "WardenOAuth", package: root),
                .product(name: "WardenSession", package: root),
            ],
            path: "WardenApple",
            swiftSettings: strict),
    ]
)
