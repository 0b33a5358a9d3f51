// swift-tools-version:6.0
// libFuzzer targets for Warden's parsers. Build and run with `scripts/fuzz TARGET SECONDS` (or `--smoke`, `--all`).
//
// The sanitizers come from the command line, not from per-target flags, so that they reach every module of the
// build, the Warden libraries under test included (libFuzzer then sees their coverage, not only the harness's):
//
//     swift build -c release --package-path Fuzz --sanitize=fuzzer --sanitize=address \
//         -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
//
// (SwiftPM passes the two sanitizers to swiftc as two options and only the last reaches the frontend, hence the
// combined -Xswiftc; scripts/fuzz explains lld.)
//
// Each harness is one file that is not `main.swift`, so SwiftPM compiles it as a library (`-parse-as-library`) and
// links it with `main` aliased to `<Target>_main`, which the harness exports and hands to libFuzzer's driver.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which depends on where the repository was cloned.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Every fuzz target and the Warden products it exercises.
let harnesses: [(name: String, products: [String])] = [
    ("FuzzAudit", ["WardenAudit"]),
    ("FuzzAuditTree", ["WardenAudit"]),
    ("FuzzAuthenticatorData", ["WardenPasskeys"]),
    ("FuzzCBOR", ["WardenPasskeys"]),
    ("FuzzCallback", ["WardenOAuth", "WardenCore", "WardenApple"]),
    ("FuzzCertificate", ["WardenCrypto"]),
    ("FuzzDER", ["WardenCrypto"]),
    ("FuzzDPoPProof", ["WardenOAuth"]),
    ("FuzzJSON", ["WardenJOSE"]),
    ("FuzzJWK", ["WardenJOSE", "WardenCrypto"]),
    ("FuzzLegacyCredentials", ["WardenSession"]),
    ("FuzzLoopbackRequest", ["WardenOAuth"]),
    ("FuzzOAuth1", ["WardenOAuth", "WardenCrypto", "WardenCore"]),
    ("FuzzPasskeyAssertion", ["WardenPasskeys"]),
    ("FuzzPEM", ["WardenCrypto"]),
    ("FuzzProviderParameters", ["WardenOAuth", "WardenCore"]),
    ("FuzzRedactor", ["WardenCore"]),
    ("FuzzRedisReply", ["WardenRedis"]),
    ("FuzzSealedFormat", ["WardenStorage"]),
]

let package = Package(
    name: "WardenFuzz",
    dependencies: [.package(path: "..")],
    targets: [.target(name: "FuzzSupport", path: "Sources/FuzzSupport")]
        + harnesses.map { harness in
            .executableTarget(
                name: harness.name,
                dependencies: ["FuzzSupport"] + harness.products.map { .product(name: $0, package: root) })
        }
)
