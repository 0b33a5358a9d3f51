import Testing
import WardenCore

@Suite("Coded errors")
struct CodedErrorTests {
    @Test func equalityIsByCodeAndTheDefaultReasonIsTheCodeInWords() {
        let bare = TransportError(.dnsLookupFailed)
        #expect(bare.codeName == "dns_lookup_failed")
        #expect(bare.reason == "dns lookup failed")
        #expect(bare.description == "dns_lookup_failed: dns lookup failed")
        let explained = TransportError(.dnsLookupFailed, "no A record for the issuer host")
        #expect(explained.reason == "no A record for the issuer host")
        #expect(explained == bare)
        #expect(explained != TransportError(.timedOut, "no A record for the issuer host"))
        #expect(InputError(.tooLong, "a") == InputError(.tooLong, "b"))
    }
}
