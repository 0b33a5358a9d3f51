#if WARDEN_APPLE
    import Foundation

    /// Data protection through Foundation (`FileAttributeKey.protectionKey`): the only place Warden sets a class.
    package struct SystemFileProtection: FileProtection {
        package init() {}

        package func protect(_ path: String, _ protection: DataProtectionClass) -> Bool {
            let type: FileProtectionType =
                switch protection {
                case .complete: .complete
                case .completeUnlessOpen: .completeUnlessOpen
                case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
                case .none: .none
                }
            do {
                try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: path)
                return true
            } catch {
                return false
            }
        }
    }
#endif
