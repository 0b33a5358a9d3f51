import Testing
import WardenCore

@Suite("Coded errors")
struct CodedErrorTests {
    @Test func equalityIsByCodeAndTheDefaultReasonIsTheCodeInWords() {
        let (bare, line) = (TransportError(.dnsLookupFailed), #line)
        #expect(bare.codeName == "dns_lookup_failed")
        #expect(bare.reason == "dns lookup failed")
        #expect(
            bare.description == "dns_lookup_failed: dns lookup failed (WardenCoreTests/CodedErrorTests.swift:\(line))")
        let explained = TransportError(.dnsLookupFailed, "no A record for the issuer host")
        #expect(explained.reason == "no A record for the issuer host")
        #expect(explained == bare)
        #expect(explained != TransportError(.timedOut, "no A record for the issuer host"))
        #expect(InputError(.tooLong, "a") == InputError(.tooLong, "b"))
    }

    /// One shape, printed with its location: the place that raised the error, not the error type's file; `==`
    /// ignores it.
    @Test func everyErrorRecordsWhereItWasRaised() {
        func raise() -> InputError { InputError(.tooLong, "too long") }
        let (raised, line) = (raise(), #line - 1)
        #expect(raised.file == "WardenCoreTests/CodedErrorTests.swift")
        #expect(raised.line == line)
        #expect(raised.location == "WardenCoreTests/CodedErrorTests.swift:\(line)")
        #expect(raised == InputError(.tooLong, "elsewhere"))
        let any: any WardenError = TransportError(.timedOut, "slow")
        #expect(any.description.hasPrefix("timed_out: slow (WardenCoreTests/CodedErrorTests.swift:"))
    }
}
