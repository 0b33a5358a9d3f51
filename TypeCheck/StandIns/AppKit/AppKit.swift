// Stand-in declarations of the AppKit API that the macOS build of Sources/WardenApple needs (`NSWindow`, which is
// `ASPresentationAnchor` on macOS), with Apple's documented signatures and main-actor isolation. For type-checking on
// Linux only (TypeCheck/Package.swift, macOS build only); never linked into an app.
//
// Apple docs: NSResponder and NSWindow are macOS 10.0 and `@MainActor`; AppKit is not part of the iOS, Mac Catalyst
// or visionOS builds (those compile the UIKit stand-in instead).
@_exported import Foundation

@available(macOS 10.0, *)
@MainActor open class NSResponder: NSObject {}

@available(macOS 10.0, *)
@MainActor open class NSWindow: NSResponder {}
