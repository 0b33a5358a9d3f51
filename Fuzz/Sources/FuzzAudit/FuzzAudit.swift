import Foundation
import FuzzSupport
import WardenAudit

/// Arbitrary bytes as a Swift file, an Objective-C file, an Info.plist, an entitlements file, a JSON resource, an
/// .xcconfig and an Xcode project file through the auditor (lexer, structure, dataflow, every rule, suppressions, the
/// property-list, JSON, xcconfig and project-file readers, the project-wide rules): a report or a skipped-file note,
/// never a crash, a leak or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = Auditor().audit(contents: [
        "App/A.swift": bytes, "App/B.m": bytes, "App/Info.plist": bytes, "App/App.entitlements": bytes,
        "App/Config.json": bytes, "App/Build.xcconfig": bytes, "App.xcodeproj/project.pbxproj": bytes,
    ])
    return 0
}

@_cdecl("FuzzAudit_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
