import Foundation
import WardenCrypto

struct PinCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "pin",
        abstract: "Print the SPKI SHA-256 pin of each certificate (PEM chain or DER).",
        arguments: "FILE...",
        discussion: """
            One 'sha256/<base64>' line per certificate, identical to
            openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
            """,
        options: [.flag("json", "Print {\"pins\":[{\"file\",\"pin\"}]}.")])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw CLIError.usage("missing FILE") }
        var results: [[String: String]] = []
        for path in arguments.positionals {
            let data = try Input.file(path, io: io)
            let pins: [CertificatePin]
            do {
                pins = try CertificatePin.pins(fromCertificates: Array(data))
            } catch {
                throw CLIError.usage("\(path): \(error.reason)", code: error.codeName)
            }
            results += pins.map { ["file": path, "pin": $0.description] }
        }
        if arguments.has("json") {
            io.out(JSONOutput.string(["pins": results]))
        } else {
            for result in results { io.out(result["pin"]!) }
        }
        return ExitCode.success
    }
}
