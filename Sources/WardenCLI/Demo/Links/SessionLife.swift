import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

extension DemoCommand {
    /// 7b. The app's life between sign-ins: an offline launch, two holders of one grant, an offline sign-out.
    enum SessionLife: DemoLink {
        static let step: String? = "offline cold launch, two holders of one grant, sign-out offline"
        static func links(in world: DemoWorld) async -> [Link] { await DemoSessionLife.links(ledger: world.ledger) }
    }

}
