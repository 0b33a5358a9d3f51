// swift-tools-version:6.0
// libFuzzer targets for Warden's parsers. Build and run with `scripts/fuzz TARGET SECONDS`.
import PackageDescription

let fuzz: [SwiftSetting] = [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])]
let link: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "WardenFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzCertificate", dependencies: [.product(name: "WardenCrypto", package: "main")],
            swiftSettings: fuzz, linkerSettings: link)
    ]
)
