#if WARDEN_APPLE
    import SwiftUI

    /// Covers sensitive UI with an opaque placeholder whenever the scene is not active, so App Switcher snapshots
    /// never show it. APIs: `@Environment(\.scenePhase)`, `overlay(alignment:content:)` and `ShapeStyle.background`
    /// (iOS 15, macOS 12).
    public struct PrivacyMask<Placeholder: View>: ViewModifier {
        @Environment(\.scenePhase) private var scenePhase
        let placeholder: Placeholder

        public func body(content: Content) -> some View {
            content.overlay {
                if scenePhase != .active {
                    placeholder.frame(maxWidth: .infinity, maxHeight: .infinity).ignoresSafeArea()
                }
            }
        }
    }

    extension View {
        /// Masks this view while the app is inactive or in the background (App Switcher).
        public func privacyMasked() -> some View {
            modifier(PrivacyMask(placeholder: Rectangle().fill(.background)))
        }

        /// Masks this view with a custom opaque placeholder.
        public func privacyMasked<P: View>(@ViewBuilder placeholder: () -> P) -> some View {
            modifier(PrivacyMask(placeholder: placeholder()))
        }
    }
#endif

#if WARDEN_UIKIT
    import UIKit

    /// The UIKit helper: an opaque cover added on `willResignActiveNotification`, removed on
    /// `didBecomeActiveNotification`.
    @MainActor
    public final class PrivacyMaskController {
        private weak var window: UIWindow?
        private var cover: UIView?
        private var observers: [any NSObjectProtocol] = []

        public init(window: UIWindow) {
            self.window = window
            let center = NotificationCenter.default
            observers.append(
                center.addObserver(forName: UIApplication.willResignActiveNotification, object: nil, queue: .main) {
                    [weak self] _ in
                    MainActor.assumeIsolated { self?.show() }
                })
            observers.append(
                center.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) {
                    [weak self] _ in
                    MainActor.assumeIsolated { self?.hide() }
                })
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
