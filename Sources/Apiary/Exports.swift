// The umbrella: `import Apiary` gives plugins, tests and the host every runtime layer, the way
// NIO's `Exports.swift` re-exports NIOCore.
@_exported import ApiaryContainer
@_exported import ApiaryKernel
@_exported import ApiaryLifecycle
@_exported import ApiaryManifest
@_exported import ApiaryMediator
@_exported import ApiarySupport
