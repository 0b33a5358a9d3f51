import Foundation
import Testing
import WardenOAuth

/// RFC 9110 §5.6.7 HTTP-date, parsed by hand: the RFC's own examples, Foundation's formatter as a second opinion, and
/// the input FuzzProviderParameters found trapping the `DateFormatter` the parser used before.
@Suite("HTTP-date")
struct HTTPDateTests {
    static let example = Date(timeIntervalSince1970: 784_111_777)

    /// The three forms RFC 9110 §5.6.7 shows for one instant, which a recipient must all accept.
    @Test func theRFCsThreeFormsAreOneInstant() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
        #expect(
            HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Date(timeIntervalSince1970: 1_800_000_000))
                == Self.example)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Self.example)
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    /// An rfc850-date's two-digit year more than 50 years ahead is the most recent past year with those digits.
    @Test func aTwoDigitYearIsPlacedNearNow() {
        let in2026 = Date(timeIntervalSince1970: 1_796_000_000)
        #expect(
            HTTPDate.parse("Tuesday, 01-Jan-80 00:00:00 GMT", now: in2026) == Date(timeIntervalSince1970: 315_532_800))
        #expect(
            HTTPDate.parse("Wednesday, 01-Jan-76 00:00:00 GMT", now: in2026).map(HTTPDate.format)
                == "Wed, 01 Jan 2076 00:00:00 GMT")
        #expect(
            HTTPDate.parse("Friday, 01-Jan-27 00:00:00 GMT", now: in2026).map(HTTPDate.format)
                == "Fri, 01 Jan 2027 00:00:00 GMT")
    }

    /// Foundation's ICU formatter as the reference: 2,000 instants from 1900 to 2100 format identically and parse back.
    @Test func formattingMatchesFoundationAndRoundTrips() {
        let reference = DateFormatter()
        reference.locale = Locale(identifier: "en_US_POSIX")
        reference.timeZone = TimeZone(identifier: "GMT")
        reference.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        for index in 0..<2000 {
            let seconds =
                index == 0 ? -2_208_988_800 : Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = HTTPDate.format(date)
            #expect(text == reference.string(from: date), "\(seconds)")
            #expect(HTTPDate.parse(text) == date, "\(text)")
        }
    }

    /// Leap days exist only in leap years; February 29th of 1900 and 2100 does not.
    @Test func calendarRulesAreTheGregorianOnes() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Mon, 29 Feb 2100 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Wed, 31 Apr 2026 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Wed, 00 Apr 2026 00:00:00 GMT") == nil)
    }

    /// Whatever the grammar does not allow is nil, never a guess and never a trap.
    @Test(arguments: [
        "", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 gmt",
        "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 1994 08:49:37 GMT junk", "Sun,06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 1994 GMT",
        "Sun, ٠٦ Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT\u{0}",
        // What FuzzProviderParameters found: a non-ASCII byte inside the date made Foundation's DateFormatter trap
        // ("Incorrect range CFRange") on Linux.
        "Tue, 01 Dec 2\u{0617}T.\u{0}3:59:59 G\u{FFFD}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}MT",
    ])
    func whatTheGrammarDoesNotAllowIsNil(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    /// At megabyte sizes the parser looks at nothing: 64 bytes at most.
    @Test func aMegabyteIsNil() {
        #expect(HTTPDate.parse(String(repeating: "Sun, 06 Nov 1994 08:49:37 GMT", count: 40_000)) == nil)
        #expect(RetryAfter.seconds(String(repeating: "9", count: 1 << 20), now: Date(timeIntervalSince1970: 0)) == nil)
    }
}
