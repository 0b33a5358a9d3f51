import Foundation

/// The one loopback predicate every Warden check uses (cleartext `http` endpoints, the transport, redirect URIs).
///
/// Loopback means an **IP literal**: dotted-quad IPv4 in 127.0.0.0/8 (exactly four decimal octets, no leading
/// zeros, no shorthand such as `127.1`, no hex) or IPv6 `::1` (bracketed in URLs, any valid spelling of it). A name
/// is never loopback, `localhost` included: its resolution can be redirected (RFC 8252 §8.3 calls `localhost`
/// NOT RECOMMENDED and §7.3 requires the literal for redirects), and names such as `127.attacker.example` or
/// `127.0.0.1.nip.io` resolve wherever their owner wants. A URL with user information is never accepted as a
/// loopback endpoint (`http://127.0.0.1@attacker.example` has the host `attacker.example`).
///
/// ```swift
/// LoopbackHost.isLoopback(URL(string: "http://127.0.0.1:8080/o")!)        // true
/// LoopbackHost.isLoopback(URL(string: "http://127.attacker.example/")!)   // false
/// ```
package enum LoopbackHost {
    /// Whether `url` names a loopback IP literal and carries no user information.
    package static func isLoopback(_ url: URL) -> Bool {
        guard url.user == nil, url.password == nil else { return false }
        return isLoopback(host: url.host)
    }

    /// Whether `host` (as `URL.host` gives it, IPv6 with or without brackets) is a loopback IP literal.
    package static func isLoopback(host: String?) -> Bool {
        guard var host, !host.isEmpty, host.utf8.count <= 64 else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.contains(":") { return isIPv6Loopback(host) }
        return isIPv4Loopback(host)
    }

    static func isIPv4Loopback(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        var values: [Int] = []
        for octet in octets {
            guard !octet.isEmpty, octet.count <= 3, octet.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                octet == "0" || octet.first != "0", let value = Int(octet), value <= 255
            else { return false }
            values.append(value)
        }
        return values[0] == 127
    }

    /// `::1` in any RFC 4291 §2.2 spelling (`::1`, `0:0:0:0:0:0:0:1`, `0::1`...), no zone, no embedded IPv4.
    static func isIPv6Loopback(_ host: String) -> Bool {
        guard !host.contains("%"), !host.contains("."), host.utf8.allSatisfy({ isHexDigit($0) || $0 == 0x3A }) else {
            return false
        }
        let halves = host.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ text: String) -> [String]? {
            if text.isEmpty { return [] }
            let parts = text.components(separatedBy: ":")
            guard parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 }) else { return nil }
            return parts
        }
        guard let head = groups(halves[0]) else { return false }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return false }
            all += [String](repeating: "0", count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return false }
        let values = all.map { UInt16($0, radix: 16) }
        guard values.allSatisfy({ $0 != nil }) else { return false }
        return values.dropLast().allSatisfy { $0 == 0 } && values.last == 1
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
