import Foundation
import Testing

@testable import WardenCore

/// The manifest is a resource of WardenCore — the module every library product links — so an app that links only
/// `Warden` (or only `WardenCrypto`) ships it too.
@Suite("Privacy manifest placement")
struct PrivacyManifestBundleTests {
    @Test func theManifestIsAResourceOfTheModuleEveryProductLinks() throws {
        let url = try #require(Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        let manifest = try #require(plist as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
    }
}
