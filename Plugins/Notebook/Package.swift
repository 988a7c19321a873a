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
    // The store's internals, and its module booted with ApiaryTesting (in the Apiary product);
    // the application is tested through `apiary`. The test bundle links the plugins its tests
    // depend on statically, so it holds one: two `apiary_plugin_entry` symbols would clash.
    .testTarget(
      name: "StorePluginTests",
      dependencies: [
        "StorePlugin", .product(name: "Apiary", package: "Apiary"),
        .product(name: "NotebookKit", package: "NotebookKit"),
      ])
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
