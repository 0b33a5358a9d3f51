// Process exists on macOS and Linux only: this file is compiled where Package.swift defines WARDEN_LOOPBACK.
#if WARDEN_LOOPBACK
    import Foundation
    /// The system browser: `$BROWSER`, else `xdg-open` on Linux / `open` on macOS.
    public struct SystemBrowser: BrowserLauncher {
        /// The system browser launcher; `$BROWSER` is read each time a URL is opened.
        public init() {}

        public func open(_ url: URL) throws {
            if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty {
                try CommandBrowser(command: browser).open(url)
                return
            }
            #if canImport(Darwin)
                try CommandBrowser(command: "open").open(url)
            #else
                try CommandBrowser(command: "xdg-open").open(url)
            #endif
        }
    }

    /// A browser command (`--browser CMD`): run through `/bin/sh -c 'CMD "$1"'` with the URL as `$1`, so the URL is
    /// an argument, never shell text.
    public struct CommandBrowser: BrowserLauncher {
        /// The shell command the URL is passed to as `$1`.
        public let command: String

        /// A launcher that runs `command` through `/bin/sh` with the URL as `$1`.
        public init(command: String) { self.command = command }

        public func open(_ url: URL) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command + " \"$1\"", "warden-browser", url.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
    }
#endif
