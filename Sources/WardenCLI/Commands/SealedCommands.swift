import Foundation
import WardenCore
import WardenCrypto
import WardenStorage

/// `warden sealed keygen / seal / open`: the sealed store's file format from a script, with a key file.
struct SealedCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "sealed",
        abstract: "Seal and open files at rest (AES-256-GCM or ChaCha20-Poly1305, the SealedStore format).",
        subcommands: [SealedKeygenCommand.self, SealedSealCommand.self, SealedOpenCommand.self])

    static let keyOption = OptionSpec.value("key", "FILE", "The key file (from 'warden sealed keygen').").required()
    static let contextOption = OptionSpec.value(
        "context", "NAME", "What the file is, authenticated with it (default: the sealed file's name, as SealedStore).")
    static let outOption = OptionSpec.value("out", "FILE", "Where to write (mode 0600; never an existing file).")
        .required()

    /// A key file holds the 32-byte master key as 64 hex digits; it must be this user's and not readable by others.
    static func key(_ path: String) throws -> [UInt8] {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CLIError.usage("cannot read '\(path)'", code: "unreadable_file") }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            throw CLIError.usage("'\(path)' is not a regular file of this user", code: "unreadable_file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw CLIError.usage("'\(path)' is readable by others: chmod 600 it", code: "key_file_exposed")
        }
        guard let text = FileManager.default.contents(atPath: path), text.count <= 200,
            let hex = String(data: text, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            hex.utf8.count == 64,
            hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) })
        else { throw CLIError.usage("'\(path)' is not a sealing key (64 hex digits)", code: "invalid_key") }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// The key ID a key file's key gets in the format: the first 16 bytes of HMAC-SHA256(key, "warden.sealed.key-id"),
    /// so that a file sealed under another key reads as `unknown_key`, not as tampering.
    static func keyID(_ key: [UInt8]) -> [UInt8] {
        Array(HMAC.authenticationCode(for: Array("warden.sealed.key-id".utf8), key: key, hash: .sha256).prefix(16))
    }

    /// Creates `path` exclusively (never an existing file, never through a link), mode 0600 from its first byte, and
    /// writes `bytes`; on any failure the new file is removed.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST || errno == ELOOP {
                throw CLIError.usage("'\(path)' exists; refusing to overwrite it", code: "file_exists")
            }
            throw CLIError.usage("cannot write '\(path)'", code: "unwritable_file")
        }
        let ok = SealedFiles.writeAll(fd, bytes)
        let synced = fsync(fd) == 0
        close(fd)
        guard ok, synced else {
            unlink(path)
            throw CLIError.usage("cannot write '\(path)'", code: "unwritable_file")
        }
    }

    static func context(_ arguments: ParsedArguments, sealedFile: String) -> String {
        arguments.value("context") ?? (sealedFile as NSString).lastPathComponent
    }
}

struct SealedKeygenCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "keygen", abstract: "Write a new random sealing key (64 hex digits, mode 0600).", arguments: "FILE",
        discussion: "An existing FILE is never overwritten (exit 2). Keep the key as you would a password.")

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let path = try arguments.singlePositional("FILE")
        let key = try SecureRandom().bytes(count: AEADAlgorithm.keyByteCount)
        try SealedCommand.write(Array((key.map { String(format: "%02x", $0) }.joined() + "\n").utf8), to: path)
        io.out(
            JSONOutput.string([
                "file": path, "key_id": SealedCommand.keyID(key).map { String(format: "%02x", $0) }.joined(),
            ]))
        return ExitCode.success
    }
}

struct SealedSealCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "seal", abstract: "Seal FILE ('-': standard input) into --out.", arguments: "FILE",
        options: [
            SealedCommand.keyOption, SealedCommand.outOption, SealedCommand.contextOption,
            .value("algorithm", "NAME", "aes-256-gcm (default) or chacha20-poly1305."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let input = try arguments.singlePositional("FILE")
        let key = try SealedCommand.key(try arguments.required("key"))
        let out = try arguments.required("out")
        let algorithm = try arguments.value("algorithm").map { name in
            guard let algorithm = AEADAlgorithm(name: name) else {
                throw CLIError.usage("unknown algorithm '\(name)' (aes-256-gcm, chacha20-poly1305)", code: "usage")
            }
            return algorithm
        }
        let plaintext = Array(try Input.file(input, io: io))
        do {
            let sealed = try SealedFormat.seal(
                plaintext, context: SealedCommand.context(arguments, sealedFile: out), master: key,
                keyID: SealedCommand.keyID(key), algorithm: algorithm ?? .aes256GCM)
            try SealedCommand.write(sealed, to: out)
        } catch let error as StorageError {
            throw CLIError.from(error)
        }
        return ExitCode.success
    }
}

struct SealedOpenCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "open", abstract: "Open a sealed FILE into --out, or refuse it whole (tampered, another key).",
        arguments: "FILE",
        discussion:
            "Exit 1 with 'tampered', 'unknown_key' or 'corrupted_data' when FILE does not open; nothing is written then.",
        options: [SealedCommand.keyOption, SealedCommand.outOption, SealedCommand.contextOption])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let input = try arguments.singlePositional("FILE")
        let key = try SealedCommand.key(try arguments.required("key"))
        let out = try arguments.required("out")
        let sealed = Array(try Input.file(input, io: io))
        do {
            let parts = try SealedFormat.parse(sealed, maximumBytes: Input.maximumBytes)
            guard parts.header.keyID == SealedCommand.keyID(key) else {
                throw StorageError(.unknownKey, "'\(input)' was sealed under another key")
            }
            let plaintext = try SealedFormat.open(
                header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag,
                context: SealedCommand.context(arguments, sealedFile: input), master: key)
            try SealedCommand.write(plaintext, to: out)
        } catch let error as StorageError {
            throw CLIError.from(error)
        }
        return ExitCode.success
    }
}
