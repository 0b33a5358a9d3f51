import Foundation
import Testing

/// The privacy manifest shipped with WardenCore (which every library product links) tells the truth: it is a valid property list, and every Apple
/// required-reason API that Warden's sources call has an entry (today none is called).
@Suite("Privacy manifest")
struct PrivacyManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Apple's required-reason API categories and the source spellings that use them.
    static let categories: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults", "NSUserDefaults"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time"],
        "NSPrivacyAccessedAPICategoryFileTimestamp": [".creationDate", ".modificationDate", "contentModificationDate"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["volumeAvailableCapacity", "systemFreeSize"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
    ]

    @Test func everyRequiredReasonAPIInSourcesIsDeclared() throws {
        let manifestURL = Self.root.appendingPathComponent("Sources/WardenCore/PrivacyInfo.xcprivacy")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: manifestURL), format: nil)
        let manifest = try #require(plist as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let declared = Set(
            (manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).compactMap {
                $0["NSPrivacyAccessedAPIType"] as? String
            })
        var used: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path)!
        while let path = enumerator.nextObject() as? String {
            // The modules an app links (the CLI, the auditor and the demo provider never ship in an app); comments
            // do not count.
            let shipped = [
                "Warden/", "WardenCore/", "WardenCrypto/", "WardenJOSE/", "WardenOAuth/", "WardenStorage/",
                "WardenSession/", "WardenPasskeys/", "WardenApple/",
            ]
            guard path.hasSuffix(".swift"), shipped.contains(where: path.hasPrefix) else { continue }
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("Sources").appendingPathComponent(path), encoding: .utf8
            ).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            for (category, spellings) in Self.categories where spellings.contains(where: text.contains) {
                used.insert(category)
            }
        }
        #expect(
            used.isSubset(of: declared),
            "required-reason APIs used without a declaration: \(used.subtracting(declared))")
    }
}
