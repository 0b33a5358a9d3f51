import SwiftUI

/// The sample app: one window, one session.
@main
struct WardenSampleApp: App {
    var body: some Scene {
        WindowGroup { ContentView() }
    }
}
