// swift-tools-version:6.0
import PackageDescription

/// Plugins that misbehave on purpose, built apart from the host like the sample's, so they never
/// ship in libApiary.so: `FaultPlugin`'s modules for the host's signal tests
/// (`Tests/ApiaryHostTests/SignalTests.swift`); `SplitPlugin`, which embeds its own copy of a
/// contract library (`NotebookKit`, linked statically), refused by the load gate; and
/// `DriftPlugin`, whose entry exports another type than its descriptor declares, refused when
/// it is opened (both in `Tests/ApiaryHostTests/PluginRefusalTests.swift`).
let package = Package(
  name: "FaultPlugin",
  platforms: [.macOS(.v15)],
  products: [
    .library(
      name: "FaultPlugin", type: .dynamic, targets: ["FaultPlugin", "FaultPluginDescriptor"]),
    .library(
      name: "SplitPlugin", type: .dynamic, targets: ["SplitPlugin", "SplitPluginDescriptor"]),
    .library(
      name: "DriftPlugin", type: .dynamic, targets: ["DriftPlugin", "DriftPluginDescriptor"]),
  ],
  dependencies: [.package(name: "Apiary", path: "../../..")],
  targets: [
    .target(name: "FaultPlugin", dependencies: [.product(name: "Apiary", package: "Apiary")]),
    .target(
      name: "FaultPluginDescriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
      publicHeadersPath: "."),
    .target(name: "NotebookKit"),
    .target(
      name: "SplitPlugin",
      dependencies: ["NotebookKit", .product(name: "Apiary", package: "Apiary")]),
    .target(
      name: "SplitPluginDescriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
      publicHeadersPath: "."),
    .target(name: "DriftPlugin", dependencies: [.product(name: "Apiary", package: "Apiary")]),
    .target(
      name: "DriftPluginDescriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
      publicHeadersPath: "."),
  ],
  swiftLanguageModes: [.v6]
)
