// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Apiary",
  platforms: [.macOS(.v15)],
  products: [
    // One shared library holds the runtime, the plugin header's host facts and the host's
    // commands, so the host and every plugin bind to one copy of each type.
    .library(
      name: "Apiary", type: .dynamic, targets: ["Apiary", "ApiaryPlugin", "ApiaryCommands"]),
    // A launcher that opens libApiary.so and calls `apiary_main`.
    .executable(name: "apiary", targets: ["ApiaryLauncher"]),
  ],
  targets: [
    .target(name: "Apiary"),
    .target(name: "ApiaryPlugin"),
    // Stand-in for branch `gate` (PLUGIN-DESIGN.md §5); deleted when `gate` lands.
    .target(name: "ApiaryPluginGate", path: "Sources/GateStandIn", exclude: ["README.md"]),
    .target(
      name: "ApiaryCommands",
      dependencies: ["Apiary", "ApiaryPlugin", "ApiaryPluginGate"]
    ),
    .executableTarget(name: "ApiaryLauncher"),
    .testTarget(name: "ApiaryTests", dependencies: ["Apiary"]),
    .testTarget(
      name: "ApiaryHostTests",
      dependencies: ["ApiaryLauncher"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
