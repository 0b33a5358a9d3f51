import Foundation
import WardenCLI

let status = await WardenCLI.main(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
