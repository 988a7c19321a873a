// swift-tools-version:6.0
import PackageDescription

/// The Apiary package is the parent directory; SwiftPM names a path dependency after its folder,
/// so the name is read from the path rather than hard-coded (`main`, a worktree, a CI clone).
let apiaryFolder = Context.packageDirectory.split(separator: "/").dropLast().last
  .map { $0.lowercased() }

let package = Package(
  name: "ApiaryBenchmarks",
  platforms: [.macOS(.v15)],
  products: [.executable(name: "apiary-bench", targets: ["ApiaryBench"])],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
  ],
  targets: [
    .target(name: "MallocCounter"),
    .executableTarget(
      name: "ApiaryBench",
      dependencies: [
        .product(name: "Apiary", package: apiaryFolder ?? "Apiary"),
        .product(name: "Swinject", package: "Swinject"),
        "MallocCounter",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
