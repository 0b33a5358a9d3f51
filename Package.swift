// swift-tools-version:6.0
// Warden: the whole auth-security chain of an app, correct by default.
//
// The Linux/Apple choice is made here, once: on Linux the crypto backend is OpenSSL's libcrypto (through the
// `COpenSSL` system library) and storage uses libsecret; on Apple platforms CryptoKit/Security and the Keychain.
// Sources never test `os(...)` for these decisions; they test the defines set below, once per whole file: the
// crypto backend's `WARDEN_OPENSSL` / `WARDEN_APPLE`, storage's `WARDEN_SECRET_SERVICE` (the Keychain goes with
// `WARDEN_APPLE`), and `PlatformStore` answers "the platform's secure store" for everything above Storage.
//
// Needs a Swift 6 toolchain: Xcode 16 or later on Apple platforms.
import PackageDescription

let linux: [Platform] = [.linux]
let apple: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]

/// Which Apple UI stack and OS the Apple-only files compile for, decided here once (the Apple type-check sets the
/// same names per platform): WARDEN_APPKIT on macOS; WARDEN_UIKIT on iOS, Mac Catalyst and visionOS, plus
/// WARDEN_CATALYST / WARDEN_VISIONOS where those differ from iOS.
let platformDefines: [SwiftSetting] = [
    .define("WARDEN_APPKIT", .when(platforms: [.macOS])),
    .define("WARDEN_UIKIT", .when(platforms: [.iOS, .macCatalyst, .visionOS])),
    .define("WARDEN_CATALYST", .when(platforms: [.macCatalyst])),
    .define("WARDEN_VISIONOS", .when(platforms: [.visionOS])),
]
let strict: [SwiftSetting] =
    [
        .enableUpcomingFeature("ExistentialAny")
    ] + platformDefines
let backendDefines: [SwiftSetting] = [
    .define("WARDEN_OPENSSL", .when(platforms: linux)),
    .define("WARDEN_APPLE", .when(platforms: apple)),
]
/// Which secure credential store exists, decided apart from the crypto backend: the Secret Service where the
/// CSecretService shim (libsecret loaded at run time) is linked, Linux. The Keychain is the Apple platform's
/// (`WARDEN_APPLE`: Security is there), which is also what the shared iOS SDK probe defines for WardenStorage.
/// Code that only needs "the platform's secure store" asks `PlatformStore` instead of testing either define.
let storageDefines: [SwiftSetting] = [.define("WARDEN_SECRET_SERVICE", .when(platforms: linux))]
/// RFC 8252 loopback sign-in (sockets, `Process` to open a browser) exists on desktops only: never on iOS,
/// Mac Catalyst, visionOS, tvOS or watchOS, where ASWebAuthenticationSession is the browser.
let loopbackDefines: [SwiftSetting] = [.define("WARDEN_LOOPBACK", .when(platforms: [.macOS, .linux]))]
/// Where WardenRedis loads hiredis (`CHiredis`, dlopen at run time): the server platforms.
let hiredisPlatforms: [Platform] = [.linux, .macOS]
/// Where the CLI and the README examples link WardenRedis (the Redis-backed stores; hiredis is loaded at run time).
/// A define, not `canImport`, which can see a module that is not linked.
let redisDefines: [SwiftSetting] = [.define("WARDEN_REDIS", .when(platforms: hiredisPlatforms))]

let package = Package(
    name: "Warden",
    // Declared platforms get every library module (README: platform matrix). tvOS and watchOS are not declared: their
    // SDKs lack ASWebAuthenticationSession presentation, LAContext biometry and passkey AutoFill.
    platforms: [.iOS(.v16), .macOS(.v13), .macCatalyst(.v16), .visionOS(.v1)],
    products: [
        .library(name: "Warden", targets: ["Warden"]),
        .library(name: "WardenCore", targets: ["WardenCore"]),
        .library(name: "WardenCrypto", targets: ["WardenCrypto"]),
        .library(name: "WardenJOSE", targets: ["WardenJOSE"]),
        .library(name: "WardenOAuth", targets: ["WardenOAuth"]),
        .library(name: "WardenStorage", targets: ["WardenStorage"]),
        .library(name: "WardenSession", targets: ["WardenSession"]),
        .library(name: "WardenPasskeys", targets: ["WardenPasskeys"]),
        .library(name: "WardenAudit", targets: ["WardenAudit"]),
        .library(name: "WardenApple", targets: ["WardenApple"]),
        // For apps' own tests: the executable, cited model of Apple's Keychain and data protection.
        .library(name: "WardenTesting", targets: ["WardenTesting"]),
        // Server side only (hiredis): Redis-backed one-time stores for relying parties with several instances.
        .library(name: "WardenRedis", targets: ["WardenRedis"]),
        .executable(name: "warden", targets: ["warden"]),
        .plugin(name: "WardenAuditPlugin", targets: ["WardenAuditPlugin"]),
    ],
    targets: [
        // The privacy manifest is WardenCore's: every library product links WardenCore, so an app that links any of
        // them (`Warden` alone included) ships the manifest.
        .target(
            name: "WardenCore", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict + backendDefines),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "WardenCrypto",
            dependencies: [
                "WardenCore",
                .target(name: "COpenSSL", condition: .when(platforms: linux)),
            ],
            swiftSettings: strict + backendDefines
        ),
        .target(name: "WardenJOSE", dependencies: ["WardenCore", "WardenCrypto"], swiftSettings: strict),
        // libsecret is dlopen'ed at run time: no headers or pkg-config at build time.
        .target(name: "CSecretService", linkerSettings: [.linkedLibrary("dl", .when(platforms: linux))]),
        .target(
            name: "WardenStorage",
            dependencies: [
                "WardenCore", "WardenCrypto", .target(name: "CSecretService", condition: .when(platforms: linux)),
            ],
            swiftSettings: strict + backendDefines + storageDefines
        ),
        .target(
            name: "WardenPasskeys", dependencies: ["WardenCore", "WardenCrypto", "WardenJOSE"], swiftSettings: strict),
        // The model of Apple's behaviour Warden relies on (Keychain, data protection), each rule with its source: the
        // Apple layer's logic runs against it on Linux, and apps can run theirs.
        .target(name: "WardenTesting", dependencies: ["WardenCore", "WardenStorage"], swiftSettings: strict),
        .target(
            name: "WardenApple",
            dependencies: [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenSession", "WardenStorage",
                "WardenPasskeys",
            ],
            swiftSettings: strict + backendDefines),
        .target(name: "WardenAudit", dependencies: ["WardenCore"], swiftSettings: strict),
        .target(
            name: "WardenLocalProvider",
            dependencies: ["WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth"],
            swiftSettings: strict + backendDefines + loopbackDefines),
        .target(
            name: "WardenSession", dependencies: ["WardenCore", "WardenOAuth", "WardenJOSE", "WardenStorage"],
            swiftSettings: strict),
        .target(
            name: "WardenOAuth", dependencies: ["WardenCore", "WardenCrypto", "WardenJOSE"],
            swiftSettings: strict + backendDefines + loopbackDefines),
        .target(
            name: "Warden",
            dependencies: [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenStorage", "WardenSession",
                "WardenPasskeys", "WardenApple",
            ],
            swiftSettings: strict
        ),
        // hiredis is dlopen'ed at run time, as libsecret is: no headers, pkg-config or Homebrew at build time, so the CLI
        // builds with the toolchain (and libssl-dev) alone. Servers only: never on iOS, Catalyst or visionOS.
        .target(
            name: "CHiredis", linkerSettings: [.linkedLibrary("dl", .when(platforms: linux))]),
        .target(
            name: "WardenRedis",
            dependencies: [
                .target(name: "CHiredis", condition: .when(platforms: hiredisPlatforms)), "WardenCore", "WardenCrypto",
                "WardenOAuth", "WardenPasskeys",
            ],
            swiftSettings: strict + [.define("WARDEN_HIREDIS", .when(platforms: hiredisPlatforms))]),
        // Fakes for the tests, the demo and the benchmarks (as swift-nio's NIOTestUtils): transports, clocks, hex, the
        // scripted browser, the log collector, the secret canary and a software passkey authenticator. Not a product:
        // nothing here is for production.
        .target(
            name: "WardenTestSupport",
            dependencies: ["WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenPasskeys"],
            swiftSettings: strict),
        .target(
            name: "WardenCLI",
            dependencies: [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenStorage", "WardenSession",
                "WardenLocalProvider", "WardenPasskeys", "WardenAudit", "WardenTestSupport",
                .target(name: "WardenRedis", condition: .when(platforms: hiredisPlatforms)),
            ],
            swiftSettings: strict + backendDefines + storageDefines + loopbackDefines + redisDefines
        ),
        .executableTarget(name: "warden", dependencies: ["WardenCLI"], swiftSettings: strict),
        .plugin(
            name: "WardenAuditPlugin",
            capability: .command(
                intent: .custom(verb: "warden-audit", description: "Audit the package with warden audit")),
            dependencies: ["warden"]),
        .testTarget(
            name: "WardenAuditTests", dependencies: ["WardenAudit", "WardenTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict),
        .testTarget(name: "WardenCoreTests", dependencies: ["WardenCore", "WardenTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "WardenCryptoTests",
            dependencies: ["WardenCrypto", "WardenCore", "WardenTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict + backendDefines
        ),
        .testTarget(
            name: "WardenJOSETests",
            dependencies: ["WardenJOSE", "WardenCrypto", "WardenCore", "WardenTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WardenOAuthTests",
            dependencies: [
                "WardenOAuth", "WardenJOSE", "WardenCrypto", "WardenCore", "WardenLocalProvider", "WardenTestSupport",
            ],
            swiftSettings: strict + loopbackDefines
        ),
        .testTarget(
            name: "WardenStorageTests",
            dependencies: ["WardenStorage", "WardenCore", "WardenTestSupport", "WardenTesting"],
            swiftSettings: strict + backendDefines + storageDefines
        ),
        .testTarget(
            name: "WardenSessionTests",
            dependencies: [
                "WardenSession", "WardenOAuth", "WardenStorage", "WardenCore", "WardenLocalProvider", "WardenPasskeys",
                "WardenCrypto", "WardenJOSE", "WardenTestSupport", "WardenTesting",
            ],
            swiftSettings: strict + loopbackDefines
        ),
        // The Apple layer's portable decisions (the browser and authorization slots, error mapping, platform policies):
        // WardenApple compiles them everywhere, so they are tested on Linux.
        .testTarget(
            name: "WardenAppleTests",
            dependencies: [
                "WardenApple", "WardenOAuth", "WardenStorage", "WardenCore", "WardenCrypto", "WardenPasskeys",
                "WardenLocalProvider", "WardenTestSupport", "WardenTesting", "WardenSession",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "WardenPasskeysTests",
            dependencies: ["WardenPasskeys", "WardenCrypto", "WardenJOSE", "WardenTestSupport"],
            resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "WardenRedisTests",
            dependencies: ["WardenRedis", "WardenPasskeys", "WardenOAuth", "WardenJOSE", "WardenCrypto", "WardenCore"],
            exclude: ["Fixtures"],  // read from the source tree by the process tests
            swiftSettings: strict),
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "WardenCore", "WardenCrypto", "WardenJOSE", "WardenOAuth", "WardenStorage", "WardenSession",
                "WardenPasskeys", "WardenTesting", .target(name: "WardenApple", condition: .when(platforms: apple)),
                .target(name: "WardenRedis", condition: .when(platforms: hiredisPlatforms)),
            ],
            // The examples bind values to show them; unused-value warnings are expected here and nowhere else.
            swiftSettings: strict + backendDefines + loopbackDefines + redisDefines + [
                .unsafeFlags(["-suppress-warnings"])
            ]
        ),
        .testTarget(
            name: "WardenCLITests",
            dependencies: [
                "WardenCLI", "WardenCrypto", "WardenCore", "WardenJOSE", "WardenOAuth", "WardenLocalProvider",
                "WardenSession", "WardenStorage", "WardenTestSupport",
            ],
            exclude: ["HelpSnapshots"],  // read from the source tree by HelpTests
            swiftSettings: strict + loopbackDefines
        ),
    ],
    swiftLanguageModes: [.v6]
)
