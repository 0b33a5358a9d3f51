import Foundation
import FuzzSupport
import WardenAudit

/// Arbitrary bytes as a Swift file, an Objective-C file and an Info.plist through the auditor (lexer, structure,
/// every rule, suppressions, property-list reader): a report or a skipped-file note, never a crash, a leak or a
/// hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = Auditor().audit(contents: ["App/A.swift": bytes, "App/B.m": bytes, "App/Info.plist": bytes])
    return 0
}

@_cdecl("FuzzAudit_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
