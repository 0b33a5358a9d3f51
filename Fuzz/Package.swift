// swift-tools-version:6.0
// libFuzzer targets for Warden's parsers. Build and run with `scripts/fuzz TARGET SECONDS`.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which depends on where the repository was cloned.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let fuzz: [SwiftSetting] = [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])]
let link: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "WardenFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        .executableTarget(
            name: "FuzzCertificate", dependencies: ["FuzzSupport", .product(name: "WardenCrypto", package: root)],
            swiftSettings: fuzz, linkerSettings: link),
        .executableTarget(
            name: "FuzzCBOR", dependencies: ["FuzzSupport", .product(name: "WardenPasskeys", package: root)],
            swiftSettings: fuzz, linkerSettings: link),
        .executableTarget(
            name: "FuzzAuthenticatorData",
            dependencies: ["FuzzSupport", .product(name: "WardenPasskeys", package: root)],
            swiftSettings: fuzz, linkerSettings: link),
        .executableTarget(
            name: "FuzzAudit", dependencies: ["FuzzSupport", .product(name: "WardenAudit", package: root)],
            swiftSettings: fuzz, linkerSettings: link),
        .executableTarget(
            name: "FuzzJSON", dependencies: ["FuzzSupport", .product(name: "WardenJOSE", package: root)],
            swiftSettings: fuzz, linkerSettings: link),
    ]
)
