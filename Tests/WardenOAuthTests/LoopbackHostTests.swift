import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenOAuth

/// The one loopback predicate: IP literals in 127.0.0.0/8 and ::1 only; names and tricks are refused everywhere
/// it is used (cleartext endpoints, the transport, discovery).
@Suite("Loopback predicate")
struct LoopbackHostTests {
    @Test(arguments: [
        "http://127.0.0.1/", "http://127.0.0.1:8080/o", "http://127.1.2.3/", "http://127.255.255.255/",
        "http://[::1]/", "http://[::1]:9/cb", "http://[0:0:0:0:0:0:0:1]/", "http://[0::1]/",
    ])
    func loopbackLiterals(_ text: String) {
        #expect(LoopbackHost.isLoopback(URL(string: text)!))
    }

    @Test(arguments: [
        "http://127.attacker.example/", "http://127.0.0.1.nip.io/", "http://localhost/", "http://LOCALHOST:80/",
        "http://127.1/", "http://127.0.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0177.0.0.1/",
        "http://127.0.0.01/", "http://127.0.0.256/", "http://128.0.0.1/", "http://10.0.0.1/", "http://[::2]/",
        "http://[::ffff:127.0.0.1]/", "http://[fe80::1%25lo]/", "http://[1::1]/", "http://[::1:0]/",
        "http://127.0.0.1@attacker.example/", "http://user@127.0.0.1/", "http://user:pw@127.0.0.1/",
        "http://attacker.example#@127.0.0.1/",
    ])
    func notLoopback(_ text: String) {
        guard let url = URL(string: text) else { return }  // unparsable is not loopback either
        #expect(!LoopbackHost.isLoopback(url), "\(text)")
    }

    @Test(arguments: [
        "http://127.attacker.example", "http://127.0.0.1.nip.io", "http://localhost:9", "http://u@127.0.0.1",
    ])
    func discoveryRefusesCleartextToNames(_ issuer: String) {
        #expect(throws: OAuthError(.insecureEndpoint)) { try ProviderMetadata.discoveryURLs(for: issuer) }
    }

    @Test func theTransportRefusesCleartextToNames() async {
        await #expect(throws: TransportError.self) {
            try await URLSessionTransport().send(HTTPRequest(url: URL(string: "http://127.attacker.example/")!))
        }
    }
}
