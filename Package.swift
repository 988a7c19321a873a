// swift-tools-version:6.0
import PackageDescription

/// The runtime's layers, lowest first. Each target imports only targets listed before it, so the
/// compiler enforces the direction: Support ← Manifest, Container, Lifecycle ← Mediator ← Kernel.
/// These are the plugin ABI: `Scripts/abi-hash` hashes their sources.
let runtime: [Target] = [
  .target(name: "ApiarySupport"),
  .target(name: "ApiaryManifest", dependencies: ["ApiarySupport"]),
  .target(name: "ApiaryContainer", dependencies: ["ApiarySupport"]),
  .target(name: "ApiaryLifecycle", dependencies: ["ApiarySupport"]),
  .target(name: "ApiaryMediator", dependencies: ["ApiarySupport", "ApiaryManifest"]),
  .target(
    name: "ApiaryKernel",
    dependencies: [
      "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle", "ApiaryMediator",
    ]
  ),
  // The umbrella plugins, tests and the host import: `import Apiary` re-exports every layer.
  .target(name: "Apiary", dependencies: ["ApiaryKernel"]),
  // The plugin header: the descriptor macro, and the host's facts compiled from it.
  .target(name: "ApiaryPlugin"),
]

/// The layers by name: targets above the runtime that use `package` declarations of a layer
/// import it, so they name it, and an incremental build recompiles them when it changes.
let layers: [Target.Dependency] = [
  "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle", "ApiaryMediator",
  "ApiaryKernel",
]

let package = Package(
  name: "Apiary",
  platforms: [.macOS(.v15)],
  products: [
    // One shared library holds the runtime, the plugin header's host facts, the test kit for
    // plugin authors and the host's commands, so the host, every plugin and a plugin package's
    // tests bind to one copy of each type.
    .library(
      name: "Apiary", type: .dynamic,
      targets: runtime.map(\.name) + [
        "ApiaryTesting", "ApiaryTooling", "ApiaryProcess", "ApiaryCommands",
      ]),
    // A launcher that opens libApiary.so and calls `apiary_main`.
    .executable(name: "apiary", targets: ["ApiaryLauncher"]),
  ],
  targets: runtime + [
    // What only the host needs, outside the runtime: the client generator and renderers.
    .target(name: "ApiaryTooling", dependencies: ["Apiary"] + layers),
    // Process placement: the wire protocol, child processes and the modules that stand for them.
    .target(name: "ApiaryProcess", dependencies: ["Apiary"] + layers),
    // The test kit for plugin authors. It belongs in the `Apiary` product with the runtime (one
    // copy of the runtime per process; see Sources/ApiaryTesting/TestApplication.swift).
    .target(name: "ApiaryTesting", dependencies: ["Apiary"] + layers),
    // The load gate: checks plugin libraries without loading them (host side, no dependency).
    .target(name: "ApiaryPluginGate"),
    .target(
      name: "ApiaryCommands",
      dependencies: [
        "Apiary", "ApiaryTooling", "ApiaryProcess", "ApiaryPlugin", "ApiaryPluginGate",
      ]
    ),
    .executableTarget(name: "ApiaryLauncher"),
    .testTarget(
      name: "ApiaryTests",
      dependencies: [
        "Apiary", "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle",
        "ApiaryMediator", "ApiaryKernel", "ApiaryTooling",
      ]
    ),
    .testTarget(name: "ApiaryTestingTests", dependencies: ["ApiaryTesting"]),
    .testTarget(name: "ApiaryProcessTests", dependencies: ["ApiaryProcess"] + layers),
    .testTarget(name: "ApiaryPluginGateTests", dependencies: ["ApiaryPluginGate"]),
    .testTarget(name: "ApiaryCommandsTests", dependencies: ["ApiaryCommands"]),
    .testTarget(name: "ApiaryHostTests", dependencies: ["ApiaryLauncher"]),
  ],
  swiftLanguageModes: [.v6]
)
