// swift-tools-version:6.0
import PackageDescription

/// Sample plugins that together make the default application in `Manifests/`.
let plugins = ["LoggingPlugin", "StorePlugin", "NotesPlugin", "SearchPlugin"]

/// Modules that misbehave on purpose (hang in a hook or an action), linked into `apiary` so the
/// host's tests can name them in their manifests.
let testFixtures = ["FaultPlugin"]

/// The runtime's layers, lowest first. Each target imports only targets listed before it, so the
/// compiler enforces the direction: Support ← Manifest, Container, Lifecycle ← Mediator ← Kernel.
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
]

let package = Package(
  name: "Apiary",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Apiary", targets: ["Apiary"]),
    .executable(name: "apiary", targets: ["ApiaryHost"]),
  ],
  targets: runtime + [
    // What only the host needs, outside the runtime: the client generator and renderers.
    .target(name: "ApiaryTooling", dependencies: ["Apiary"]),
    // The test kit for plugin authors. It belongs in the `Apiary` product with the runtime (one
    // copy of the runtime per process; see Sources/ApiaryTesting/TestApplication.swift).
    .target(name: "ApiaryTesting", dependencies: ["Apiary"]),
    // The load gate: checks plugin libraries without loading them (host side, no dependency).
    .target(name: "ApiaryPluginGate"),
    .target(name: "NotebookKit", dependencies: ["Apiary"], path: "Plugins/NotebookKit"),
    .executableTarget(
      name: "ApiaryHost",
      dependencies: ["Apiary", "ApiaryTooling"] + (plugins + testFixtures).map { .target(name: $0) }
    ),
    .testTarget(
      name: "ApiaryTests",
      dependencies: [
        "Apiary", "ApiarySupport", "ApiaryManifest", "ApiaryContainer", "ApiaryLifecycle",
        "ApiaryMediator", "ApiaryKernel", "ApiaryTooling",
      ]
    ),
    .testTarget(name: "ApiaryTestingTests", dependencies: ["ApiaryTesting"]),
    .testTarget(name: "ApiaryPluginGateTests", dependencies: ["ApiaryPluginGate"]),
    .testTarget(
      name: "ApiaryHostTests",
      dependencies: ["ApiaryHost", "Apiary", "NotebookKit"] + plugins.map { .target(name: $0) }
    ),
  ]
    + plugins.map { name in
      .target(name: name, dependencies: ["Apiary", "NotebookKit"], path: "Plugins/\(name)")
    }
    + testFixtures.map { name in
      .target(name: name, dependencies: ["Apiary"], path: "Tests/Fixtures/\(name)")
    },
  swiftLanguageModes: [.v6]
)
