// swift-tools-version:6.0
import PackageDescription

/// The Notebook sample's contract library: protocols, value types, events and typed clients that
/// its plugins share. A shared library loaded once, so a `Note` or a `NoteStore` is one type in
/// the whole process.
let package = Package(
  name: "NotebookKit",
  platforms: [.macOS(.v15)],
  products: [
    .library(
      name: "NotebookKit", type: .dynamic, targets: ["NotebookKit", "NotebookKitDescriptor"])
  ],
  dependencies: [.package(name: "Apiary", path: "../..")],
  targets: [
    .target(name: "NotebookKit", dependencies: [.product(name: "Apiary", package: "Apiary")]),
    .target(
      name: "NotebookKitDescriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
      publicHeadersPath: "."),
  ],
  swiftLanguageModes: [.v6]
)
