import ApiaryPluginGate
import Foundation
import Testing

/// Builds tiny real shared libraries with the machine's C compiler (`cc`), in a fresh temporary
/// directory, to feed the gate real ELF files. A missing compiler fails the test with a clear
/// message; nothing is skipped.
struct Fixtures {
  /// Why a fixture could not be built.
  struct BuildError: Error, CustomStringConvertible {
    let description: String
  }

  /// The facts every fixture is built against unless a test says otherwise.
  static let host = HostFacts(
    apiaryVersion: SemanticVersion(1, 4, 0), abiHash: "3f2a9c", compiler: "Clang 17.0.6 (test)",
    triple: "x86_64-unknown-linux-gnu", abiModules: ["Apiary"])

  let directory: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-gate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    directory = url.path
  }

  /// The descriptor text Apiary's header and an author would write, with `replacing` lines
  /// (`"abi": "0000"`) swapped in and `extra` lines appended.
  static func descriptor(
    plugin: String, version: String = "1.0.0", modules: [String] = [], targets: [String] = [],
    requires: [String] = [], replacing: [String: String] = [:], extra: [String] = []
  ) -> String {
    let header: [(String, String)] = [
      ("descriptor", "1"), ("apiary", "\(host.apiaryVersion)"), ("abi", host.abiHash),
      ("compiler", host.compiler), ("triple", host.triple), ("plugin", plugin),
      ("version", version),
    ]
    let lines =
      header.map { key, value in "\(key) \(replacing[key] ?? value)" }
      + modules.map { "module \($0)" } + targets.map { "target \($0)" }
      + requires.map { "requires \($0)" } + extra
    return lines.map { $0 + "\n" }.joined()
  }

  /// Compiles `lib<name>.so` in `subdirectory` from a C file holding `descriptor` (if any) in the
  /// `apiary_plugin` section, the entry symbol (if `entry`), and `source`; `flags` go to `cc`.
  @discardableResult
  func library(
    _ name: String, in subdirectory: String = "", descriptor: String?, entry: Bool = true,
    source: String = "", flags: [String] = []
  ) throws -> String {
    let folder = subdirectory.isEmpty ? directory : directory + "/" + subdirectory
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var text = source + "\n"
    if let descriptor {
      text += """
        __attribute__((used, section("apiary_plugin")))
        static const char apiary_descriptor[] = "\(Self.cString(descriptor))";

        """
    }
    if entry { text += "void *apiary_plugin_entry(void) { return 0; }\n" }
    let sourcePath = folder + "/\(name).c"
    try text.write(toFile: sourcePath, atomically: true, encoding: .utf8)
    let output = folder + "/lib\(name).so"
    try Self.cc(["-shared", "-fPIC", "-o", output, sourcePath] + flags)
    return output
  }

  /// A C definition of a symbol with a Swift mangled `name` (`$s6Apiary6KernelCMn`), as an
  /// embedded copy of a Swift module would define it.
  static func swiftSymbol(_ name: String, _ cName: String) -> String {
    "const char \(cName)[] __asm__(\"\(name)\") = {1};\n"
  }

  /// Writes `bytes` to `name` in the fixture directory.
  func write(_ bytes: [UInt8], to name: String) throws -> String {
    let path = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The bytes of `path`.
  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Runs `cc arguments`, failing with the compiler's output.
  static func cc(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc"] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    do {
      try process.run()
    } catch {
      throw BuildError(
        description:
          "cannot run 'cc' (\(error)); the gate's tests build real ELF fixtures with the C compiler: install gcc or clang"
      )
    }
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let reason =
        process.terminationStatus == 127
        ? "'cc' was not found; the gate's tests build real ELF fixtures with the C compiler: install gcc or clang"
        : "cc \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)):\n\(output)"
      throw BuildError(description: reason)
    }
  }

  /// `text` as the inside of a C string literal.
  private static func cString(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }
}
