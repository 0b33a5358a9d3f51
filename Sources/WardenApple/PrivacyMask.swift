#if WARDEN_APPLE
    import SwiftUI
    import WardenSession

    /// Covers sensitive UI with an opaque placeholder while the scene is not active (or, with
    /// `PrivacyMaskPolicy(trigger: .background)`, only in the background), so App Switcher snapshots never show it.
    /// The trade-off between the two is ``PrivacyMaskPolicy``'s. APIs: `@Environment(\.scenePhase)`,
    /// `overlay(alignment:content:)` and `ShapeStyle.background` (iOS 15, macOS 12).
    public struct PrivacyMask<Placeholder: View>: ViewModifier {
        @Environment(\.scenePhase) private var scenePhase
        let placeholder: Placeholder
        let policy: PrivacyMaskPolicy

        /// The content with the placeholder laid over it, filling the safe area too, whenever the policy masks in
        /// the current scene phase.
        public func body(content: Content) -> some View {
            content.overlay {
                if policy.masked(active: scenePhase == .active, background: scenePhase == .background) {
                    placeholder.frame(maxWidth: .infinity, maxHeight: .infinity).ignoresSafeArea()
                }
            }
        }
    }

    extension View {
        /// Masks this view while its scene is inactive or in the background (App Switcher).
        public func privacyMasked(_ policy: PrivacyMaskPolicy = PrivacyMaskPolicy()) -> some View {
            modifier(PrivacyMask(placeholder: Rectangle().fill(.background), policy: policy))
        }

        /// Masks this view with a custom opaque placeholder.
        public func privacyMasked<P: View>(
            _ policy: PrivacyMaskPolicy = PrivacyMaskPolicy(), @ViewBuilder placeholder: () -> P
        ) -> some View {
            modifier(PrivacyMask(placeholder: placeholder(), policy: policy))
        }
    }
#endif

#if WARDEN_UIKIT
    import UIKit
    import WardenCore
    import WardenSession

    /// The UIKit helper: an opaque cover over one window, driven by the life cycle of **that window's scene**
    /// (`UIScene` notifications filtered by scene), so each window of a multi-window iPad app is masked on its own.
    /// A window without a scene (an app without a scene manifest) follows the application's notifications instead.
    /// When it masks is ``PrivacyMaskPolicy``'s decision (default: on every deactivation, which also covers the UI
    /// under a Face ID prompt or a system alert; `.background` masks only in the background).
    ///
    /// Call ``invalidate()`` when the window goes away (its observers are also removed when the controller is
    /// released).
    ///
    /// ```swift
    /// let mask = PrivacyMaskController(window: window)   // keep it as long as the window
    /// ```
    @MainActor
    public final class PrivacyMaskController {
        private weak var window: UIWindow?
        /// The cover, in a main-actor box (Sendable) that `deinit`, which is nonisolated, can reach.
        private let coverBox = CoverBox()
        private var cover: UIView? {
            get { coverBox.view }
            set { coverBox.view = newValue }
        }

        @MainActor private final class CoverBox {
            var view: UIView?
        }
        private let policy: PrivacyMaskPolicy
        /// Notification tokens; a Sendable box so that `deinit` (nonisolated) can remove them.
        private let observers = Locked<[any NSObjectProtocol]>([])

        /// Starts masking `window` as `policy` decides (default: on every deactivation). The window is held weakly;
        /// keep the controller as long as the window.
        public init(window: UIWindow, policy: PrivacyMaskPolicy = PrivacyMaskPolicy()) {
            self.window = window
            self.policy = policy
            let sceneEvents: [(NSNotification.Name, PrivacyMaskPolicy.Event)] = [
                (UIScene.willDeactivateNotification, .willDeactivate),
                (UIScene.didEnterBackgroundNotification, .didEnterBackground),
                (UIScene.willEnterForegroundNotification, .willEnterForeground),
                (UIScene.didActivateNotification, .didActivate),
            ]
            let applicationEvents: [(NSNotification.Name, PrivacyMaskPolicy.Event)] = [
                (UIApplication.willResignActiveNotification, .willDeactivate),
                (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
                (UIApplication.willEnterForegroundNotification, .willEnterForeground),
                (UIApplication.didBecomeActiveNotification, .didActivate),
            ]
            let center = NotificationCenter.default
            let sceneTokens = sceneEvents.map { name, event in
                center.addObserver(forName: name, object: nil, queue: .main) { [weak self] notification in
                    // Only this window's scene: another window of the app is another scene.
                    let scene = notification.object.map { ObjectIdentifier($0 as AnyObject) }
                    MainActor.assumeIsolated { self?.handle(event, scene: scene) }
                }
            }
            let applicationTokens = applicationEvents.map { name, event in
                center.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                    MainActor.assumeIsolated { self?.handleApplication(event) }
                }
            }
            observers.withLock { $0 = sceneTokens + applicationTokens }
        }

        /// Removes the observers and the cover: a controller released while masking must not leave the window
        /// covered for good.
        deinit {
            let tokens = observers.withLock { tokens -> [any NSObjectProtocol] in
                defer { tokens = [] }
                return tokens
            }
            for token in tokens { NotificationCenter.default.removeObserver(token) }
            let box = coverBox
            if Thread.isMainThread {
                MainActor.assumeIsolated {
                    box.view?.removeFromSuperview()
                    box.view = nil
                }
            } else {
                Task { @MainActor in
                    box.view?.removeFromSuperview()
                    box.view = nil
                }
            }
        }

        /// Stops masking: removes the observers and the cover.
        public func invalidate() {
            let tokens = observers.withLock { tokens -> [any NSObjectProtocol] in
                defer { tokens = [] }
                return tokens
            }
            for token in tokens { NotificationCenter.default.removeObserver(token) }
            hide()
        }

        private func handle(_ event: PrivacyMaskPolicy.Event, scene: ObjectIdentifier?) {
            guard let window, let windowScene = window.windowScene, scene == ObjectIdentifier(windowScene) else {
                return
            }
            apply(event)
        }

        /// The application's events drive only a window that has no scene (an app without a scene manifest); with
        /// scenes, each window follows its own.
        private func handleApplication(_ event: PrivacyMaskPolicy.Event) {
            guard let window, window.windowScene == nil else { return }
            apply(event)
        }

        private func apply(_ event: PrivacyMaskPolicy.Event) {
            if policy.masked(after: event, wasMasked: cover != nil) { show() } else { hide() }
        }

        private func show() {
            guard let window, cover == nil else { return }
            let view = UIView(frame: window.bounds)
            view.backgroundColor = .systemBackground
            view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            window.addSubview(view)
            cover = view
        }

        private func hide() {
            cover?.removeFromSuperview()
            cover = nil
        }
    }
#endif
