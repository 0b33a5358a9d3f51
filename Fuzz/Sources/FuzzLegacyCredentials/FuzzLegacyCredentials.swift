import Foundation
import FuzzSupport
@_spi(Fuzzing) import WardenSession

/// The readers of other SDKs' stored credentials (Auth0.swift's `A0Credentials`, AppAuth's `OIDAuthState`,
/// GTMAppAuth's archive and GTMOAuth2 string, okta-mobile-swift's token JSON, a token response, a bare refresh token)
/// over arbitrary bytes — keyed archives through Foundation's unarchiver with Warden's secure-coding readers: each
/// gives credentials or a typed refusal, never a crash, a leak or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let accepted = SessionMigration.readEveryFormat(Data(bytes: data, count: size))
    require(accepted <= 6, "more readers accepted than exist")
    return 0
}

@_cdecl("FuzzLegacyCredentials_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
