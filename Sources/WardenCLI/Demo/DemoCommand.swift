import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

/// Records every secret the demo sees, so the log check can look for them.
final class SecretLedger: Sendable {
    private let secrets = Locked<[String]>([])
    func add(_ values: String?...) { secrets.withLock { $0 += values.compactMap { $0 }.filter { $0.count >= 12 } } }
    var all: [String] { secrets.current }
}

struct DemoCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "The end-to-end tour: every link of the chain on an embedded local OpenID provider.",
        discussion: "Exit 0 only if every link held. The embedded provider is for the demo only, never for production.",
        options: [
            .flag("json", #"Print {"links":[{"name","ok","evidence"}],"ok":...}."#),
            .value("issuer", "URL", "Run the parts that need no provider switches against this provider instead."),
            .value("client-id", "ID", "With --issuer: a public client registered for http://127.0.0.1/callback."),
            .value("browser", "CMD", "With --issuer: open the authorization URL with this command."),
            .value("revocation-endpoint", "URL", "With --issuer: RFC 7009 endpoint when discovery omits it."),
        ])

    struct Link {
        let name: String
        var ok: Bool
        var evidence: String
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let sink = CollectingLogSink()
        let ledger = SecretLedger()
        let issuer = arguments.value("issuer")
        let clientID = arguments.value("client-id")
        for name in ["client-id", "browser", "revocation-endpoint"] where issuer == nil && arguments.value(name) != nil
        {
            throw CLIError.usage("'--\(name)' needs '--issuer'")
        }
        let links = try await WardenLog.withSink(sink) {
            if let issuer {
                guard let clientID else { throw CLIError.usage("'--issuer' needs '--client-id'") }
                return try await realProviderTour(
                    issuer: issuer, clientID: clientID, arguments: arguments, io: io, ledger: ledger,
                    progress: !arguments.has("json"))
            }
            return try await tour(io: io, ledger: ledger, progress: !arguments.has("json"))
        }
        // The last link: nothing the demo saw may appear in its logs.
        let canary = SecretCanary(secrets: ledger.all)
        let leaks = canary.leaks(in: sink.lines)
        var all = links
        all.append(
            Link(
                name: "secrets never in logs", ok: leaks.isEmpty && !ledger.all.isEmpty,
                evidence:
                    "\(sink.all.count) log lines (all levels) scanned for \(ledger.all.count) secrets and their 12-character substrings: \(leaks.count) found"
            ))
        let ok = all.allSatisfy(\.ok)
        if arguments.has("json") {
            io.out(
                JSONOutput.string([
                    "ok": ok, "links": all.map { ["name": $0.name, "ok": $0.ok, "evidence": $0.evidence] },
                ]))
        } else {
            io.out("")
            for link in all {
                io.out("\(link.ok ? "✔" : "✘") \(link.name)")
                io.out("    \(link.evidence)")
            }
            io.out("")
            io.out(ok ? "every link held (\(all.count)/\(all.count))" : "\(all.filter { !$0.ok }.count) link(s) broke")
        }
        return ok ? ExitCode.success : ExitCode.rejected
    }

    /// The Secret Service when the library and a service are there, otherwise memory — with the reason.
    static func demoStore(io: CommandIO, service: String) async -> (any CredentialStore, String) {
        #if WARDEN_SECRET_SERVICE
            if let why = SecretServiceStore.libraryLoadError {
                return (InMemoryStore(), "memory store (libsecret not loadable: \(why.prefix(80)))")
            }
            guard io.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
                return (InMemoryStore(), "memory store (no D-Bus session bus for a Secret Service)")
            }
            let secretService = SecretServiceStore(timeout: .seconds(5))
            if await secretService.probe(),
                (try? await secretService.save(Data("probe".utf8), service: service, account: "probe")) != nil
            {
                try? await secretService.delete(service: service, account: "probe")
                return (secretService, "Secret Service (libsecret loaded at run time; gnome-keyring or KWallet)")
            }
            return (InMemoryStore(), "memory store (no Secret Service answered on the session bus)")
        #else
            return (InMemoryStore(), "memory store")
        #endif
    }

    static func describe(_ state: SessionState) -> String {
        switch state {
        case .signedIn: "signedIn"
        case .degraded(reason: .refreshFailed(let code)): "degraded(\(code))"
        case .degraded(let reason): "degraded(\(reason))"
        case .signedOut(let reason): "signedOut(\(reason))"
        }
    }

}

/// The demo session's clock: real time plus the backoff windows the demo steps past instead of waiting them out.
final class DemoClock: Sendable {
    private let offset = Locked<TimeInterval>(0)
    var current: Date { Date().addingTimeInterval(offset.current) }
    var now: NowProvider { { [self] in current } }
    func advance(to date: Date) {
        let delta = date.timeIntervalSince(current)
        if delta > 0 { offset.withLock { $0 += delta + 0.001 } }
    }
}
