import Foundation
import WardenCore

/// One HTTP request the loopback server received.
@_spi(Fuzzing) public struct LoopbackRequest: HTTPMessage {
    @_spi(Fuzzing) public let method: String
    /// The request target as sent (`/callback?code=...`).
    @_spi(Fuzzing) public let target: String
    @_spi(Fuzzing) public let headers: [String: String]
    @_spi(Fuzzing) public let body: Data

    /// The path part of the target.
    @_spi(Fuzzing) public var path: String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }
    /// The query part of the target, if any.
    @_spi(Fuzzing) public var query: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : nil
    }
}

/// The loopback server's HTTP/1.1 request parser, apart from any socket so it can be unit-tested and fuzzed.
///
/// Feed it bytes as they arrive; it answers ``State/needMore`` until one request is complete. Request lines over
/// 8 KiB and headers over 16 KiB are 431, bodies over 64 KiB 413, anything malformed 400: an uppercase method, an
/// origin-form target of visible ASCII, `HTTP/1.x`, `name: value` header lines, at most one `Content-Length` of
/// digits only, and a connection that ends early are all checked.
@_spi(Fuzzing) public struct LoopbackRequestParser: Sendable {
    @_spi(Fuzzing) public struct Failure: Error, Equatable, Sendable {
        @_spi(Fuzzing) public let status: Int
    }
    @_spi(Fuzzing) public enum State: Sendable {
        case needMore
        case complete(LoopbackRequest)
        case failed(Failure)
    }

    @_spi(Fuzzing) public static let maximumHeaderBytes = 16 * 1024
    @_spi(Fuzzing) public static let maximumRequestLineBytes = 8 * 1024
    @_spi(Fuzzing) public static let maximumBodyBytes = 64 * 1024

    private var buffer: [UInt8] = []
    private var head: (method: String, target: String, headers: [String: String], length: Int, bodyStart: Int)?
    private var scanned = 0

    @_spi(Fuzzing) public init() {}

    /// How many bytes the next read should ask for.
    @_spi(Fuzzing) public var wanted: Int {
        guard let head else { return 4096 }
        return max(1, min(65536, head.length - (buffer.count - head.bodyStart)))
    }

    /// Adds `bytes` (an empty chunk means the peer closed the connection).
    @_spi(Fuzzing) public mutating func feed(_ bytes: [UInt8]) -> State {
        guard !bytes.isEmpty else { return .failed(Failure(status: 400)) }
        buffer += bytes
        if head == nil {
            // Search only the new bytes (and the three before them) for the blank line.
            var end: Int?
            var index = max(0, scanned - 3)
            while index + 3 < buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    end = index
                    break
                }
                index += 1
            }
            scanned = buffer.count
            guard let end else {
                // A head of up to the cap may still end with a blank line whose CR LF CR LF straddles the cap:
                // refuse only once no terminator can start within it, so TCP's splitting never changes the answer.
                return buffer.count > Self.maximumHeaderBytes + 3 ? .failed(Failure(status: 431)) : .needMore
            }
            guard end <= Self.maximumHeaderBytes else { return .failed(Failure(status: 431)) }
            switch Self.parseHead(buffer[..<end]) {
            case .failure(let failure): return .failed(failure)
            case .success(let parsed): head = (parsed.0, parsed.1, parsed.2, parsed.3, end + 4)
            }
        }
        guard let head else { return .needMore }
        let available = buffer.count - head.bodyStart
        guard available >= head.length else { return .needMore }
        return .complete(
            LoopbackRequest(
                method: head.method, target: head.target, headers: head.headers,
                body: Data(buffer[head.bodyStart..<(head.bodyStart + head.length)])))
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<
        (String, String, [String: String], Int), Failure
    > {
        let bad = Failure(status: 400)
        guard let text = UTF8Validation.string(bytes) else { return .failure(bad) }
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard lines[0].utf8.count <= maximumRequestLineBytes else { return .failure(Failure(status: 431)) }
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0",
            requestLine[1].hasPrefix("/"), !requestLine[0].isEmpty,
            requestLine[0].utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            requestLine[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(bad) }
        var headers: [String: String] = [:]
        var length: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return .failure(bad) }
            let name = String(line[..<colon])
            guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }) else { return .failure(bad) }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return .failure(bad)
            }
            if name.lowercased() == "content-length" {
                guard length == nil, !value.isEmpty, value.utf8.count <= 6,
                    value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let number = Int(value)
                else { return .failure(bad) }
                guard number <= maximumBodyBytes else { return .failure(Failure(status: 413)) }
                length = number
            }
            headers[name] = value
        }
        return .success((String(requestLine[0]), String(requestLine[1]), headers, length ?? 0))
    }
}
