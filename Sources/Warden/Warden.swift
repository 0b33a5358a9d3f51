// The umbrella module: `import Warden` brings in every portable module.
@_exported import WardenCore
@_exported import WardenCrypto
