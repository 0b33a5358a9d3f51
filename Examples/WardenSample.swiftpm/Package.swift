// swift-tools-version: 6.0
// The Warden sample app, as an app package: open this folder in Xcode 16 or later and run it on
// an iPhone or the simulator. Edit Sources/SampleConfiguration.swift first: your provider, client ID and API.
// Its sources are type-checked for iOS on every `scripts/test` run (TypeCheck/Package.swift) and against the real
// iOS SDK by `scripts/typecheck-apple` when IOS_SDK_MIRROR is set; see README.md beside this file.
import PackageDescription

#if canImport(AppleProductTypes)
    import AppleProductTypes
#endif

/// The app product exists only where Xcode or Swift Playgrounds provide AppleProductTypes.
var products: [Product] = []
#if canImport(AppleProductTypes)
    products.append(
        .iOSApplication(
            name: "Warden Sample",
            targets: ["WardenSample"],
            bundleIdentifier: "com.example.wardensample",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .lock),
            accentColor: .presetColor(.indigo),
            supportedDeviceFamilies: [.phone, .pad],
            supportedInterfaceOrientations: [.portrait, .landscapeLeft, .landscapeRight],
            capabilities: [
                .outgoingNetworkConnections(),
                // NSFaceIDUsageDescription: the refresh token is bound to Face ID (SampleSession, SessionStores).
                .faceID(purposeString: "Face ID unlocks your session when the app refreshes it."),
            ]
        ))
#endif

let package = Package(
    name: "WardenSample",
    platforms: [.iOS("16.0")],
    products: products,
    // The Warden checkout this folder is in. In your own app: .package(url: "<Warden's repository>", from: "0.1.0").
    dependencies: [.package(name: "Warden", path: "../..")],
    targets: [
        .executableTarget(
            name: "WardenSample",
            dependencies: [
                .product(name: "Warden", package: "Warden"), .product(name: "WardenApple", package: "Warden"),
            ],
            path: "Sources")
    ]
)
