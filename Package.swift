// swift-tools-version:6.0
import PackageDescription

/// Sample plugins that together make the default application in `Manifests/`.
let plugins = ["LoggingPlugin", "StorePlugin", "NotesPlugin", "SearchPlugin"]

let package = Package(
  name: "Apiary",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Apiary", targets: ["Apiary"]),
    .executable(name: "apiary", targets: ["ApiaryHost"]),
  ],
  targets: [
    .target(name: "Apiary"),
    .target(name: "ApiaryPluginGate"),
    .target(name: "NotebookKit", dependencies: ["Apiary"], path: "Plugins/NotebookKit"),
    .executableTarget(
      name: "ApiaryHost",
      dependencies: ["Apiary"] + plugins.map { .target(name: $0) }
    ),
    .testTarget(name: "ApiaryTests", dependencies: ["Apiary"]),
    .testTarget(name: "ApiaryPluginGateTests", dependencies: ["ApiaryPluginGate"]),
    .testTarget(
      name: "ApiaryHostTests",
      dependencies: ["ApiaryHost", "Apiary", "NotebookKit"] + plugins.map { .target(name: $0) }
    ),
  ]
    + plugins.map { name in
      .target(name: name, dependencies: ["Apiary", "NotebookKit"], path: "Plugins/\(name)")
    },
  swiftLanguageModes: [.v6]
)
