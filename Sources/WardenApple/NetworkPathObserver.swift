#if WARDEN_APPLE
    import Dispatch
    import Network
    import WardenCore
    import WardenSession

    /// Tells Warden when the network comes back, from `NWPathMonitor`: on an unsatisfied path followed by a satisfied
    /// one (``NetworkReturnDetector`` decides), `onReturn` runs once — typically
    /// ``AuthSession/networkBecameAvailable()`` (ends the refresh backoff and retries once; a server's
    /// `Retry-After` still holds) and ``AuthClient/retryPendingRevocations()`` (a sign-out made offline).
    ///
    /// Keep the observer alive as long as the session (it stops on ``cancel()`` or when released).
    ///
    /// ```swift
    /// let observer = NetworkPathObserver {
    ///     await session.networkBecameAvailable()
    ///     await client.retryPendingRevocations()
    /// }
    /// ```
    ///
    /// Thread-safety: the monitor delivers on its own serial queue; the detector is behind a lock.
    @available(iOS 12.0, macOS 10.14, macCatalyst 13.1, visionOS 1.0, *)
    public final class NetworkPathObserver: Sendable {
        private let monitor: Locked<NWPathMonitor>

        /// Starts observing at once.
        public init(onReturn: @escaping @Sendable () async -> Void) {
            let monitor = NWPathMonitor()
            let detector = Locked(NetworkReturnDetector())
            monitor.pathUpdateHandler = { path in
                let back = detector.withLock { $0.update(usable: path.status == .satisfied) }
                if back { Task { await onReturn() } }
            }
            monitor.start(queue: DispatchQueue(label: "dev.warden.network-path"))
            self.monitor = Locked(monitor)
        }

        /// Observes for one session and its client: the backoff ends and failed revocations are retried.
        public convenience init(session: AuthSession, client: AuthClient) {
            self.init {
                await session.networkBecameAvailable()
                await client.retryPendingRevocations()
            }
        }

        /// Stops observing.
        public func cancel() { monitor.withLock { $0.cancel() } }

        deinit { cancel() }
    }
#endif
