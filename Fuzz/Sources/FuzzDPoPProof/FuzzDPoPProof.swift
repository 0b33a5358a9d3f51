import Foundation
import FuzzSupport
import WardenOAuth

/// Arbitrary bytes as a DPoP proof for `POST https://server.example.com/token` at a fixed time (the committed seeds
/// are proofs signed for it, Fuzz/Seeds/make_signed_seeds.py): a proof or a typed ``DPoPError``, never a crash, a
/// leak or a hang. Oracle: a proof the verifier accepts is refused as `replayed` when it comes again, also to a
/// second verifier sharing the replay cache, and an accepted proof fits the 8 KiB cap and names a `jti`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let proof = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    blocking {
        let cache = InMemoryDPoPReplayCache(capacity: 16, perKeyCapacity: 4)
        let first = DPoPVerifier(replayCache: cache, now: { Fixture.now })
        guard
            let accepted = try? await first.verify(proof, method: "POST", url: Fixture.url)
        else { return }
        require(proof.utf8.count <= DPoPVerifier.maximumProofBytes, "accepted a proof over the size cap")
        require(!accepted.jti.isEmpty, "accepted a proof without a jti")
        for verifier in [first, DPoPVerifier(replayCache: cache, now: { Fixture.now })] {
            do throws(DPoPError) {
                _ = try await verifier.verify(proof, method: "POST", url: Fixture.url)
                require(false, "a replayed proof was accepted")
            } catch {
                require(error.code == .replayed, "a replayed proof was refused as \(error.code), not replayed")
            }
        }
    }
    return 0
}

enum Fixture {
    static let url = URL(string: "https://server.example.com/token")!
    /// Ten seconds after the seeds' `iat`.
    static let now = Date(timeIntervalSince1970: 1_764_000_010)
}

@_cdecl("FuzzDPoPProof_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
