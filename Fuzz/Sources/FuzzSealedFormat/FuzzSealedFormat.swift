import FuzzSupport
@_spi(Fuzzing) import WardenStorage

/// The sealed store's format (header, key list) over arbitrary bytes: a typed refusal or an opened message, never a
/// crash; every input sealed opens back, and with one byte changed does not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = SealedFormatFuzzing.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("FuzzSealedFormat_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
