import Foundation
import Testing

/// Plugin libraries compiled by `cc` from a few lines of C, with a descriptor that carries this
/// host's facts (`apiary plugin host`) unless a test replaces them: for refusals no Swift plugin
/// package shows cheaply (a `requires` cycle, an embedded copy of Apiary's own modules, whose
/// target names SwiftPM will not let a second package reuse). The gate refuses or accepts them
/// before any of their code runs; their entry is never called.
///
/// ```swift
/// let cycle = try CPlugin.library(
///   "CycleA", lines: ["module CycleA.AModule", "requires CycleB ^1.0.0"], in: directory)
/// ```
enum CPlugin {
  /// `apiary plugin host`'s lines (`apiary 0.1.0`, `abi …`, …), read once.
  static let hostFacts: [String] = {
    let facts = (try? HostProcess.run(["plugin", "host"]).stdout) ?? ""
    return facts.split(separator: "\n").map(String.init)
  }()

  /// Compiles `lib<name>.so` in `directory`: descriptor `plugin <name>`, `version <version>` and
  /// `lines`, after the host's facts with `replacing` (`["configuration": "release"]`) applied;
  /// an `apiary_plugin_entry` that returns null; and `source`; `flags` go to `cc` (libraries to
  /// link, a RUNPATH).
  static func library(
    _ name: String, version: String = "1.0.0", lines: [String],
    replacing: [String: String] = [:], source: String = "", flags: [String] = [],
    in directory: URL
  ) throws -> URL {
    let header = hostFacts.map { line in
      let key = String(line.prefix { $0 != " " })
      return replacing[key].map { "\(key) \($0)" } ?? line
    }
    let descriptor = (["descriptor 1"] + header + ["plugin \(name)", "version \(version)"] + lines)
      .map { $0 + "\\n" }.joined()
    let text = """
      __attribute__((used, section("apiary_plugin")))
      const char apiary_plugin_descriptor[] = "\(descriptor)";
      void *apiary_plugin_entry(void) { return 0; }
      \(source)
      """
    let file = directory.appendingPathComponent("\(name).c")
    try Data(text.utf8).write(to: file)
    let library = directory.appendingPathComponent("lib\(name).so")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc", "-shared", "-fPIC", "-o", library.path, file.path] + flags
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let errors = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "cc failed: \(errors)")
    return library
  }

  /// A C definition of the Swift symbol `mangled` (a type descriptor, `…CMn`), as a library
  /// that linked that type's module statically defines it.
  static func swiftSymbol(_ mangled: String, _ cName: String) -> String {
    "const char \(cName)[] __asm__(\"\(mangled)\") = {1};\n"
  }

  /// A C reference to the Swift symbol `mangled`, which the loader must bind when the library
  /// is opened, as a library that uses that declaration of another module needs it.
  static func swiftReference(_ mangled: String, _ cName: String) -> String {
    "extern const char \(cName) __asm__(\"\(mangled)\");\n"
      + "const void *\(cName)_use = &\(cName);\n"
  }
}
