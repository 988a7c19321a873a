// swift-tools-version:6.0
import PackageDescription

/// Sample plugins that together make the default application in `Manifests/`.
let plugins = ["LoggingPlugin", "StorePlugin", "NotesPlugin", "SearchPlugin"]

/// Modules that misbehave on purpose (hang in a hook or an action), linked into `apiary` so the
/// host's tests can name them in their manifests.
let testFixtures = ["FaultPlugin"]

let package = Package(
  name: "Apiary",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Apiary", targets: ["Apiary"]),
    .executable(name: "apiary", targets: ["ApiaryHost"]),
  ],
  targets: [
    .target(name: "Apiary"),
    .target(name: "NotebookKit", dependencies: ["Apiary"], path: "Plugins/NotebookKit"),
    .executableTarget(
      name: "ApiaryHost",
      dependencies: ["Apiary"] + (plugins + testFixtures).map { .target(name: $0) }
    ),
    .testTarget(name: "ApiaryTests", dependencies: ["Apiary"]),
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
