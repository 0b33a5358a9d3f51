import Foundation

enum Input {
    /// Largest file or stdin input the CLI reads (bigger inputs are refused, not truncated).
    static let maximumBytes = 16 << 20

    /// Reads a file argument (`-` is standard input). Unreadable is a usage error (exit 2).
    static func file(_ path: String, io: CommandIO) throws -> Data {
        let data: Data
        if path == "-" {
            data = io.readStdin()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw CLIError.usage("cannot read '\(path)'", code: "unreadable_file")
            }
            data = contents
        }
        guard data.count <= maximumBytes else {
            throw CLIError.usage("'\(path)' is over \(maximumBytes >> 20) MiB", code: "input_too_large")
        }
        return data
    }

    /// A token/URL/body argument: the text itself, or standard input for `-` (trailing newline trimmed).
    static func text(_ argument: String, io: CommandIO) -> String {
        guard argument == "-" else { return argument }
        return String(decoding: io.readStdin(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

enum JSONOutput {
    /// Pretty, key-sorted JSON of a Foundation object.
    static func string(_ object: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
