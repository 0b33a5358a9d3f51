import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// The local provider's simulated outage keeps its port: refused to clients, but bound, so no other listener of a
/// parallel test is handed it and the provider can come back on it.
@Suite("Local provider: outages keep the port")
struct LocalProviderOutageTests {
    /// Binds a plain socket (no SO_REUSEADDR) to 127.0.0.1:`port`: whether the port was free.
    static func portIsFree(_ port: UInt16) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    @Test func anOutageRefusesClientsButKeepsThePortUntilTheProviderIsBack() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        provider.outage = .connectionRefused
        await #expect(throws: (any Error).self) {
            _ = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        }
        #expect(!Self.portIsFree(provider.port), "the port was given up during the outage")
        provider.outage = .none
        let metadata = try await ProviderMetadata.discover(issuer: provider.issuer, transport: URLSessionTransport())
        #expect(metadata.issuer == provider.issuer)
    }
}
