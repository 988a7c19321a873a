// swift-tools-version:6.0
import PackageDescription

/// Modules that misbehave on purpose, for the host's signal tests
/// (`Tests/ApiaryHostTests/SignalTests.swift`): a plugin built apart from the host, like the
/// sample's, so it never ships in libApiary.so.
let package = Package(
  name: "FaultPlugin",
  platforms: [.macOS(.v15)],
  products: [
    .library(
      name: "FaultPlugin", type: .dynamic, targets: ["FaultPlugin", "FaultPluginDescriptor"])
  ],
  dependencies: [.package(name: "Apiary", path: "../../..")],
  targets: [
    .target(name: "FaultPlugin", dependencies: [.product(name: "Apiary", package: "Apiary")]),
    .target(
      name: "FaultPluginDescriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
      publicHeadersPath: "."),
  ],
  swiftLanguageModes: [.v6]
)
