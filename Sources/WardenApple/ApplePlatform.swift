#if WARDEN_APPLE
    import WardenSession

    /// The platform this build is for, from Package.swift's defines (decided once, there).
    enum ApplePlatform {
        static var current: UsageDescriptionCheck.Platform {
            #if WARDEN_APPKIT
                return .macOS
            #elseif WARDEN_CATALYST
                return .macCatalyst
            #elseif WARDEN_VISIONOS
                return .visionOS
            #else
                return .iOS
            #endif
        }
    }
#endif
