#if !WARDEN_APPLE
    /// Where there is no data protection (Linux): nothing to set.
    package struct SystemFileProtection: FileProtection {
        package init() {}
        package func protect(_ path: String, _ protection: DataProtectionClass) -> Bool { true }
        package func protectionClass(of path: String) -> DataProtectionClass? { nil }
    }
#endif
