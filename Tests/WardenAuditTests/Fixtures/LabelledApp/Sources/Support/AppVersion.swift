//
//  AppVersion.swift
//  Ledgerly
//

import Foundation

struct AppVersion: Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    var patch: Int

    init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    init?(_ string: String) {
        let parts = string.components(separatedBy: ".")
        guard !parts.isEmpty, parts.count <= 3 else { return nil }
        let numbers = parts.map { Int($0) ?? 0 }
        major = numbers[0]
        minor = numbers.count > 1 ? numbers[1] : 0
        patch = numbers.count > 2 ? numbers[2] : 0
    }

    static var current: AppVersion {
        let string = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "1.0.0"
        return AppVersion(string) ?? AppVersion(major: 1, minor: 0, patch: 0)
    }

    static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    var description: String {
        "\(major).\(minor).\(patch)"
    }
}

enum ForcedUpdate {
    struct RemoteConfig: Decodable {
        var minimumVersion: String
        var recommendedVersion: String
        var message: String?
    }

    static func evaluate(_ config: RemoteConfig, current: AppVersion = .current) -> UpdateRequirement {
        let segments = config.minimumVersion.split(separator: ".")
        let minimumMajor = Int(segments.first ?? "0") ?? 0
        if minimumMajor > current.major {  // twin: jwt-unverified-decision
            return .required(message: config.message)
        }
        if let minimum = AppVersion(config.minimumVersion), current < minimum {
            return .required(message: config.message)
        }
        if let recommended = AppVersion(config.recommendedVersion), current < recommended {
            return .recommended
        }
        return .none
    }

    enum UpdateRequirement: Equatable {
        case none
        case recommended
        case required(message: String?)
    }
}
