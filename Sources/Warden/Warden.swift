// The umbrella module: `import Warden` brings in every portable module.
@_exported import WardenCore
@_exported import WardenCrypto
@_exported import WardenJOSE
@_exported import WardenOAuth
@_exported import WardenPasskeys
@_exported import WardenSession
@_exported import WardenStorage
