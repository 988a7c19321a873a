import Foundation

/// Makes `count` distinct plugin libraries, `libBenchPlugin000.so` …, for the plugin cases, and
/// keeps them next to the benchmark executable (`.build/<config>/bench-plugins/<abi>-<template>/`)
/// so later runs reuse them.
///
/// A plugin package per plugin would cost a `swift build` each (minutes for 100). Instead the
/// plugin's Swift source (``source``) and its descriptor (``descriptor``) are compiled once,
/// against the Apiary modules and `ApiaryPlugin.h` this executable was built with, for module
/// `BenchPlugin000`; each further plugin is a copy of the two object files with the module
/// name's digits changed (same length, so every symbol, metadata string and descriptor line
/// stays valid: the linker, not a patch, builds each library's symbol and hash tables), linked
/// by `swiftc -emit-library` like SwiftPM links a plugin product. Every library is a real,
/// separately linked plugin with its own module name, types, descriptor and entry point; what is
/// shared is only the compilation of identical source.
///
/// ```swift
/// let libraries = try PluginFactory().libraries(3)  // [".../libBenchPlugin000.so", ...]
/// ```
struct PluginFactory {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The plugins' module name for plugin 0; the digits are the plugin's number.
  static let templateName = "BenchPlugin000"
  /// The version every generated descriptor declares.
  static let version = "1.0.0"

  /// Where this executable and `libApiary.so` are, with the Swift modules in `Modules/`.
  let products: URL
  /// The repository root, for `Sources/ApiaryPlugin/include/ApiaryPlugin.h`.
  let root: URL

  init() {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    products = executable.deletingLastPathComponent()
    root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  static func name(_ index: Int) -> String {
    "BenchPlugin" + String(repeating: "0", count: 3 - "\(index)".count) + "\(index)"
  }

  /// The first `count` plugins' library paths, made where missing (at most 1,000).
  func libraries(_ count: Int) throws -> [String] {
    guard count <= 1_000 else { throw Failure(description: "at most 1000 generated plugins") }
    let header = root.appendingPathComponent("Sources/ApiaryPlugin/include")
    let abi = try Self.abiHash(in: header.appendingPathComponent("ApiaryPlugin.h"))
    let directory = products.appendingPathComponent(
      "bench-plugins/\(abi.prefix(16))-\(Self.fingerprint(Self.source + Self.descriptor))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let swiftObject = directory.appendingPathComponent("plugin.o")
    let descriptorObject = directory.appendingPathComponent("descriptor.o")
    if !FileManager.default.fileExists(atPath: descriptorObject.path) {
      let swiftFile = directory.appendingPathComponent("plugin.swift")
      let cFile = directory.appendingPathComponent("descriptor.c")
      try Self.source.write(to: swiftFile, atomically: true, encoding: .utf8)
      try Self.descriptor.write(to: cFile, atomically: true, encoding: .utf8)
      try Self.run(
        "swiftc",
        [
          "-parse-as-library", "-swift-version", "6", "-O", "-module-name", Self.templateName,
          "-I", products.appendingPathComponent("Modules").path, "-c", swiftFile.path, "-o",
          swiftObject.path,
        ])
      try Self.run(
        "clang", ["-O2", "-fPIC", "-I", header.path, "-c", cFile.path, "-o", descriptorObject.path])
    }
    let objects = try [swiftObject, descriptorObject].map { [UInt8](try Data(contentsOf: $0)) }
    var made: [String] = []
    for index in 0..<count {
      let name = Self.name(index)
      let library = directory.appendingPathComponent("lib\(name).so")
      made.append(library.path)
      if FileManager.default.fileExists(atPath: library.path) { continue }
      let work = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      var inputs: [String] = []
      for (object, file) in zip(objects, ["plugin.o", "descriptor.o"]) {
        let copy = work.appendingPathComponent(file)
        try Data(Self.replacing(Self.templateName, with: name, in: object)).write(to: copy)
        inputs.append(copy.path)
      }
      try Self.run(
        "swiftc",
        ["-emit-library"] + inputs + [
          "-L", products.path, "-lApiary", "-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../..",
          "-o", library.path + ".partial",
        ])
      try FileManager.default.moveItem(atPath: library.path + ".partial", toPath: library.path)
    }
    return made
  }

  /// `bytes` with every occurrence of `old` replaced by `new` (same length).
  static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
    let (pattern, replacement) = (Array(old.utf8), Array(new.utf8))
    var bytes = bytes
    var index = 0
    while index + pattern.count <= bytes.count {
      if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) {
        bytes.replaceSubrange(index..<index + pattern.count, with: replacement)
        index += pattern.count
      } else {
        index += 1
      }
    }
    return bytes
  }

  /// FNV-1a of `text` in hexadecimal: with the ABI hash, the cache key, so a changed template
  /// makes new plugins (a changed toolchain is refused by the gate: its `compiler` line differs).
  static func fingerprint(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
  }

  /// The ABI hash `ApiaryPlugin.h` records: the cache key, so a changed ABI makes new plugins.
  static func abiHash(in header: URL) throws -> String {
    let text = try String(contentsOf: header, encoding: .utf8)
    let line = text.split(separator: "\n").first { $0.hasPrefix("#define APIARY_ABI_HASH ") }
    guard let hash = line?.split(separator: "\"").dropFirst().first else {
      throw Failure(description: "\(header.path): no APIARY_ABI_HASH")
    }
    return String(hash)
  }

  /// Runs a toolchain command found on `PATH`; its output is shown only when it fails.
  static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(
        description: "\(tool) failed: \(String(decoding: text, as: UTF8.self).prefix(2_000))")
    }
  }

  /// The plugin: a module that binds a singleton in `setUp`, and a target with `add`; the same
  /// as ``TwinModule`` and ``TwinTarget`` in the benchmark itself.
  static let source = """
    import Apiary

    public final class LoadedModule: Module {
      public init() {}

      public func setUp(_ context: ModuleContext) throws {
        try context.container.register(
          (any CustomStringConvertible & Sendable).self, name: context.name, scope: .singleton
        ) { _ in LoadedService() }
      }
    }

    public final class LoadedService: CustomStringConvertible, Sendable {
      public init() {}
      public var description: String { "plugin" }
    }

    public final class LoadedTarget: Target {
      public init(context: ModuleContext) throws {}

      public static let actions: ActionTable<LoadedTarget> = [
        "add": .sync { _, params in try params.int("a") + params.int("b") }
      ]
    }

    @_cdecl("apiary_plugin_entry")
    public func apiaryPluginEntry() -> UnsafeMutableRawPointer {
      PluginExports(modules: LoadedModule.self, targets: LoadedTarget.self).retained()
    }
    """

  /// The descriptor `apiary plugin new` writes, with its `requires apiary` range: the gate checks
  /// a generated plugin as it checks a scaffolded one.
  static let descriptor = """
    #include <ApiaryPlugin.h>
    APIARY_PLUGIN(
      "plugin \(templateName)\\n"
      "version \(version)\\n"
      "module \(templateName).LoadedModule\\n"
      "target \(templateName).LoadedTarget\\n"
      "requires apiary >=0.1.0 <0.2.0\\n")
    """
}
