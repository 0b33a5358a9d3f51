/// Decides when a stream of network-path updates means "the network is back": an unusable path, then a usable
/// one. The first update only sets the baseline (an app launched online has nothing to return from), and repeated
/// usable updates (a Wi-Fi → cellular hand-over) do not fire again.
///
/// WardenApple's `NetworkPathObserver` feeds it `NWPathMonitor`'s updates and calls
/// ``AuthSession/networkBecameAvailable()`` when it says so; it is portable so that the decision is tested on Linux.
///
/// ```swift
/// var detector = NetworkReturnDetector()
/// detector.update(usable: false)  // false: offline
/// detector.update(usable: true)   // true: back
/// ```
package struct NetworkReturnDetector: Sendable {
    private var lastUsable: Bool?

    package init() {}

    /// One path update; true when the network came back.
    @discardableResult
    package mutating func update(usable: Bool) -> Bool {
        defer { lastUsable = usable }
        return usable && lastUsable == false
    }
}
