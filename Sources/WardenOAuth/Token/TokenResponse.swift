import Foundation
import WardenCore
import WardenJOSE

/// A successful token endpoint response (RFC 6749 §5.1), validated.
///
/// Secrets print `<redacted>`.
public struct TokenResponse: Sendable, CustomStringConvertible, JSONDocument {
    /// `access_token`: non-empty when parsed from a response.
    public let accessToken: Redacted<String>
    /// `Bearer` (compared case-insensitively when parsing; normalised here).
    public let tokenType: String
    /// `expires_in`: the access token's lifetime in seconds from the response; nil when the provider sent none.
    public let expiresIn: TimeInterval?
    /// `refresh_token`, when the provider sent one.
    public let refreshToken: Redacted<String>?
    /// `id_token`, as received (not verified here), when the provider sent one.
    public let idToken: Redacted<String>?
    /// `scope`: the granted scopes, space-separated, when the provider sent them.
    public let scope: String?
    /// The response's `Date` header (the provider's clock), when it had a valid one; see ``ProviderTime``.
    public var serverDate: Date?
    /// The device time when the response arrived.
    public var receivedAt: Date?

    /// A response from its fields as given, without the checks of ``init(json:)``.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: TimeInterval?, refreshToken: String?,
        idToken: String?, scope: String?
    ) {
        self.accessToken = Redacted(accessToken)
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken.map(Redacted.init)
        self.idToken = idToken.map(Redacted.init)
        self.scope = scope
    }

    /// Parses and validates a 200 response body; `String` and `Data` forms come from ``JSONDocument``.
    public init(json body: [UInt8]) throws(OAuthError) {
        let object: JSONObject
        do { object = try JSONReader(maximumBytes: 256 * 1024, maximumDepth: 8).parseObject(body) } catch {
            throw OAuthError(.invalidTokenResponse, "the token response is not a JSON object (\(error.codeName))")
        }
        func string(_ name: String) throws(OAuthError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                throw OAuthError(.invalidTokenResponse, "\(name) is not a string")
            }
            return text
        }
        guard let access = try string("access_token"), !access.isEmpty else {
            throw OAuthError(.invalidTokenResponse, "the token response has no access_token")
        }
        guard let type = try string("token_type") else { throw OAuthError(.invalidTokenResponse, "no token_type") }
        guard ["bearer", "dpop"].contains(type.lowercased()) else {
            throw OAuthError(.invalidTokenResponse, "unsupported token_type (Bearer or DPoP)")
        }
        var expires: TimeInterval?
        if let value = object["expires_in"] {
            guard let number = value.numberValue, number.double.isFinite, number.double >= 0, number.double < 1e9 else {
                throw OAuthError(.invalidTokenResponse, "expires_in is not a non-negative number")
            }
            expires = number.double
        }
        accessToken = Redacted(access)
        tokenType = type.lowercased() == "dpop" ? "DPoP" : "Bearer"
        expiresIn = expires
        refreshToken = try string("refresh_token").map(Redacted.init)
        idToken = try string("id_token").map(Redacted.init)
        scope = try string("scope")
    }

    public var description: String {
        "TokenResponse(access_token: <redacted>, expires_in: \(expiresIn.map { "\(Int($0))" } ?? "nil"), refresh_token: \(refreshToken == nil ? "nil" : "<redacted>"), id_token: \(idToken == nil ? "nil" : "<redacted>"))"
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, capped.
package enum RetryAfter {
    /// The delay in seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), or nil when absent or unparsable.
    /// Capped at `cap` (default 7 days) only to keep arithmetic sane: a cap below the server's value would let a
    /// client retry early.
    package static func seconds(_ header: String?, now: Date, cap: TimeInterval = 7 * 86400) -> TimeInterval? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Int(header), seconds >= 0 { return min(TimeInterval(seconds), cap) }
        guard let date = HTTPDate.parse(header) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), cap)
    }
}

/// RFC 9110 §5.6.7 HTTP-date: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form every sender uses, and the two
/// obsolete forms a recipient must still accept (`Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`).
///
/// Parsed by hand from the grammar, byte by byte: no locale, no `DateFormatter` (whose Linux implementation traps on
/// some non-ASCII input), nothing accepted that the grammar does not allow.
public enum HTTPDate {
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date, or nil when `text` is not an HTTP-date (at most 64 bytes are looked at).
    ///
    /// - Parameter now: the clock that places an `rfc850-date`'s two-digit year: one more than 50 years in the future
    ///   is the most recent past year with those digits (RFC 9110 §5.6.7).
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64 else { return nil }
        var reader = Reader(Array(trimmed.utf8))
        guard let day = reader.word() else { return nil }
        if days.contains(day), reader.take(",") {
            guard reader.take(" "), let date = reader.date1(), reader.take(" "), let time = reader.time(),
                reader.take(" GMT"), reader.atEnd
            else { return nil }
            return make(date.year, date.month, date.day, time)
        }
        if longDays.contains(day) {
            guard reader.take(", "), let date = reader.date2(now: now), reader.take(" "), let time = reader.time(),
                reader.take(" GMT"), reader.atEnd
            else { return nil }
            return make(date.year, date.month, date.day, time)
        }
        guard days.contains(day), reader.take(" "), let month = reader.month(), reader.take(" "),
            let dayOfMonth = reader.paddedDay(), reader.take(" "), let time = reader.time(), reader.take(" "),
            let year = reader.digits(4), reader.atEnd
        else { return nil }
        return make(year, month, dayOfMonth, time)
    }

    /// `date` as an IMF-fixdate.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (dayNumber, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86400)
        let daysSinceEpoch = secondOfDay < 0 ? dayNumber - 1 : dayNumber
        let second = secondOfDay < 0 ? secondOfDay + 86400 : secondOfDay
        let (year, month, day) = civil(fromDays: daysSinceEpoch)
        // 1970-01-01 was a Thursday (index 3 from Monday).
        let weekday = Int(((daysSinceEpoch % 7) + 7 + 3) % 7)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(days[weekday]), \(two(day)) \(months[Int(month) - 1]) \(yearText) "
            + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
    }

    private static func make(_ year: Int, _ month: Int, _ day: Int, _ time: (Int, Int, Int)) -> Date? {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day), time.0 < 24, time.1 < 60,
            time.2 <= 60
        else { return nil }
        let dayNumber = daysFromCivil(Int64(year), Int64(month), Int64(day))
        let seconds = dayNumber * 86400 + Int64(time.0 * 3600 + time.1 * 60 + time.2)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysFromCivil(_:_:_:)`` (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected
            else { return false }
            index += expected.count
            return true
        }

        /// ASCII letters up to the next non-letter.
        mutating func word() -> String? {
            let start = index
            while index < bytes.count, (0x41...0x5A).contains(bytes[index]) || (0x61...0x7A).contains(bytes[index]) {
                index += 1
            }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        mutating func month() -> Int? {
            guard bytes.count - index >= 3 else { return nil }
            let name = String(decoding: bytes[index..<index + 3], as: UTF8.self)
            guard let position = HTTPDate.months.firstIndex(of: name) else { return nil }
            index += 3
            return position + 1
        }

        /// `date1 = day SP month SP year` (`06 Nov 1994`).
        mutating func date1() -> (year: Int, month: Int, day: Int)? {
            guard let day = digits(2), take(" "), let month = month(), take(" "), let year = digits(4) else {
                return nil
            }
            return (year, month, day)
        }

        /// `date2 = day "-" month "-" 2DIGIT` (`06-Nov-94`).
        mutating func date2(now: Date) -> (year: Int, month: Int, day: Int)? {
            guard let day = digits(2), take("-"), let month = month(), take("-"), let short = digits(2) else {
                return nil
            }
            let current = Int(HTTPDate.civil(fromDays: Int64((now.timeIntervalSince1970 / 86400).rounded(.down))).0)
            var year = current - current % 100 + short
            if year > current + 50 { year -= 100 }
            return (year, month, day)
        }

        /// `date3`'s day: two digits or a space and one digit (`Nov  6`).
        mutating func paddedDay() -> Int? {
            if take(" ") { return digits(1) }
            return digits(2)
        }

        /// `time-of-day = hour ":" minute ":" second`.
        mutating func time() -> (Int, Int, Int)? {
            guard let hour = digits(2), take(":"), let minute = digits(2), take(":"), let second = digits(2) else {
                return nil
            }
            return (hour, minute, second)
        }
    }
}
