import Foundation
import WardenCore
import WardenStorage

/// `--store secret-service|memory|file` (file only with `--insecure-storage`).
enum StoreChoice {
    static let options: [OptionSpec] = [
        .value(
            "store", "KIND",
            "keychain (macOS: the login keychain, the default there), secret-service (Linux, the default there), "
                + "memory, or file (needs --insecure-storage)."),
        .flag("insecure-storage", "Allow the plaintext file store (tokens readable by anyone with your files)."),
        .value("account", "NAME", "The account name (default: default)."),
    ]

    static let service = "dev.warden.cli.tokens"

    static func store(_ arguments: ParsedArguments, io: CommandIO) throws -> any CredentialStore {
        let choice = arguments.value("store") ?? defaultStore
        switch choice {
        case PlatformStore.Kind.keychain.rawValue, PlatformStore.Kind.secretService.rawValue:
            let kind = PlatformStore.Kind(rawValue: choice)!
            guard PlatformStore.isAvailable(kind) else {
                let alternative = PlatformStore.secure.map { "; use \($0.rawValue)" } ?? ""
                throw CLIError.usage(
                    (kind == .keychain
                        ? "the Keychain store exists on Apple platforms only"
                        : "the Secret Service store exists on Linux only") + alternative)
            }
            // Several `warden` processes may refresh one grant: they share a lease under $XDG_RUNTIME_DIR.
            let runtime = try io.directory(
                xdg: "XDG_RUNTIME_DIR", fallback: kind == .keychain ? "Library/Caches" : ".local/state")
            let lock = FileGrantLock(directory: URL(fileURLWithPath: runtime).appendingPathComponent("warden/locks"))
            do { return try PlatformStore.make(kind, grantLock: lock, commandLineTool: true) } catch {
                throw CLIError.usage(error.reason, code: error.codeName)
            }
        case "memory":
            return InMemoryStore()
        case "file":
            guard arguments.has("insecure-storage") else {
                throw CLIError.usage(
                    "the file store keeps tokens in plain text; pass --insecure-storage to accept that")
            }
            let base = try io.directory(xdg: "XDG_STATE_HOME", fallback: ".local/state")
            do {
                return try PlaintextFileStore.insecure(
                    directory: URL(fileURLWithPath: base).appendingPathComponent("warden/insecure-credentials"))
            } catch { throw CLIError.usage(error.reason, code: error.codeName) }
        case let other:
            throw CLIError.usage("unknown --store '\(other)' (keychain, secret-service, memory, file)")
        }
    }

    /// The platform's secure store: the Keychain on Apple platforms, the Secret Service elsewhere.
    static var defaultStore: String { PlatformStore.secure?.rawValue ?? "memory" }

    static func account(_ arguments: ParsedArguments) throws -> String {
        let account = arguments.value("account") ?? "default"
        do { try CredentialStoreLimits.check(service: service, account: account) } catch {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        return account
    }

    /// Storage failures: transient ones (a locked keyring, a lock timeout) are exit 75 and keep everything;
    /// configuration ones exit 2; the rest 1.
    static func failure(_ error: StorageError) -> CLIError {
        error.failureKind == .misconfiguration
            ? CLIError.usage(error.reason, code: error.codeName) : CLIError.from(error)
    }
}

/// `warden store`: low-level access to Warden's credential store (debugging and scripting).
struct StoreCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "store", abstract: "Low-level credential store access: get, set, delete, list (debugging).",
        arguments: "get|set|delete|list",
        discussion:
            "'get' prints the stored item: use it only when you want exactly that value on screen. 'set' reads the item from standard input.",
        options: [
            .value("service", "S", "The service name.").required(),
            StoreChoice.options[0],
            .flag("insecure-storage", "Allow the plaintext file store."),
            .value("account", "NAME", "The account name."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let action = try arguments.singlePositional("ACTION (get, set, delete, list)")
        let service = try arguments.required("service")
        let store = try StoreChoice.store(arguments, io: io)
        do {
            switch action {
            case "get":
                guard let data = try await store.load(service: service, account: try arguments.required("account"))
                else {
                    throw CLIError.rejected("not_found", "no item for that service and account")
                }
                io.writeOut(String(decoding: data, as: UTF8.self))
            case "set":
                try await store.save(io.readStdin(), service: service, account: try arguments.required("account"))
            case "delete":
                if let account = arguments.value("account") {
                    try await store.delete(service: service, account: account)
                } else {
                    try await store.deleteAll(service: service)
                }
            case "list":
                for account in try await store.accounts(service: service) { io.out(account) }
            default:
                throw CLIError.usage("unknown action '\(action)' (get, set, delete, list)")
            }
        } catch let error as StorageError {
            throw StoreChoice.failure(error)
        }
        return ExitCode.success
    }
}
