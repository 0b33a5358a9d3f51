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

        /// The guide's check: `FileAttributeKey.protectionKey` of the file as the system reports it.
        package func protectionClass(of path: String) -> DataProtectionClass? {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let type = attributes[.protectionKey] as? FileProtectionType
            else { return nil }
            // By raw value: FileProtectionType is Hashable in Apple's Foundation, not in every Foundation.
            let classes: [(FileProtectionType, DataProtectionClass)] = [
                (.complete, .complete), (.completeUnlessOpen, .completeUnlessOpen),
                (.completeUntilFirstUserAuthentication, .completeUntilFirstUserAuthentication),
                (.none, DataProtectionClass.none),
            ]
            return classes.first { $0.0.rawValue == type.rawValue }?.1
        }
    }
#endif
