// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for Apiary's hostile-input entry points. Build and run them with
/// `Scripts/fuzz` (they need `--sanitize=fuzzer`, which provides `main`).
let fuzzers = [
  "FuzzManifestJSON", "FuzzManifestPlist", "FuzzURL", "FuzzPluginGate", "FuzzWire",
]

let package = Package(
  name: "ApiaryFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Apiary", path: "..")],
  targets: [
    .target(name: "FuzzSupport", dependencies: [.product(name: "Apiary", package: "Apiary")])
  ]
    + fuzzers.map { name in
      .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "Apiary", package: "Apiary")],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
  swiftLanguageModes: [.v6]
)
