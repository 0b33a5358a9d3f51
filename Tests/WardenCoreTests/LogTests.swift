import Foundation
import Testing
import WardenCore
import WardenTestSupport

@Suite("Logging facade")
struct LogTests {
    @Test func everyLevelIsRedacted() {
        let sink = CollectingLogSink()
        WardenLog.withSink(sink) {
            let log = WardenLogger(category: "test")
            for level in LogLevel.allCases {
                log.log(
                    level, "callback https://app/cb?code=SECRETCODE123456789",
                    metadata: ["access_token": "tokvalue", "url": "x?state=s1"])
            }
        }
        #expect(sink.all.count == LogLevel.allCases.count)
        for line in sink.lines {
            #expect(!line.contains("SECRETCODE") && !line.contains("tokvalue") && !line.contains("s1"), "\(line)")
        }
    }

    @Test func disabledLevelsDoNotBuildMessages() {
        WardenLog.configure(sink: NoLogSink(), minimumLevel: .error)
        nonisolated(unsafe) var built = false
        WardenLogger(category: "test").debug(
            {
                built = true
                return "x"
            }())
        #expect(!built)
    }
}
