// swift-tools-version:6.0
import PackageDescription

/// The Notebook sample's plugins, each a shared library of its own, built apart from the host
/// (`swift build --package-path Plugins/Notebook`) and named by `Manifests/modules/*`.
let plugins = ["LoggingPlugin", "StorePlugin", "NotesPlugin", "SearchPlugin"]

let package = Package(
  name: "NotebookPlugins",
  platforms: [.macOS(.v15)],
  products: plugins.map { name in
    .library(name: name, type: .dynamic, targets: [name, "\(name)Descriptor"])
  },
  dependencies: [
    .package(name: "Apiary", path: "../.."),
    .package(path: "../NotebookKit"),
  ],
  targets: [
    // Unit tests of the store's internals; the application is tested through `apiary`.
    .testTarget(
      name: "StorePluginTests",
      dependencies: ["StorePlugin", .product(name: "NotebookKit", package: "NotebookKit")])
  ]
    + plugins.flatMap { name -> [Target] in
      [
        .target(
          name: name,
          dependencies: [
            .product(name: "Apiary", package: "Apiary"),
            .product(name: "NotebookKit", package: "NotebookKit"),
          ]),
        .target(
          name: "\(name)Descriptor", dependencies: [.product(name: "Apiary", package: "Apiary")],
          publicHeadersPath: "."),
      ]
    },
  swiftLanguageModes: [.v6]
)
