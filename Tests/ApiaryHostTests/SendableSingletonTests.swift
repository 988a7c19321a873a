import Foundation
import Testing

/// A singleton reaches every thread that resolves it, so a plugin's compiler must refuse one
/// whose type is not `Sendable`, while a transient binding of the same type (a new instance per
/// resolve) compiles. Each snippet is type-checked against the built `Apiary` modules from
/// outside the package, as a plugin is.
@Suite struct SendableSingletonTests {
  /// Type-checks `body` after `import Apiary` and a non-Sendable class `Draft`.
  func typecheck(_ body: String) throws -> (status: Int32, errors: String) {
    let file = HostProcess.temporaryDirectory().appendingPathComponent("Snippet.swift")
    let source = "import Apiary\nfinal class Draft { var text = \"\" }\n" + body + "\n"
    try source.write(to: file, atomically: true, encoding: .utf8)
    let modules = HostProcess.executable.deletingLastPathComponent().appendingPathComponent(
      "Modules")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, file.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  @Test func aTransientBindingOfANonSendableTypeCompiles() throws {
    let result = try typecheck(
      "func bind(_ c: Container) throws { try c.register(Draft.self) { _ in Draft() } }")
    #expect(result.status == 0, "\(result.errors)")
  }

  @Test(arguments: [
    "try c.register(Draft.self, scope: .singleton) { _ in Draft() }",
    "try c.register(Draft.self, scope: .weak) { _ in Draft() }",
    "try c.register(Draft.self, instance: Draft())",
    "try c.register(Draft.self, scope: .singleton) { (_, text: String) in Draft() }",
  ])
  func aSharedBindingOfANonSendableTypeDoesNotCompile(_ registration: String) throws {
    let result = try typecheck("func bind(_ c: Container) throws { \(registration) }")
    #expect(result.status != 0)
    #expect(result.errors.contains("type 'Draft' does not conform to the 'Sendable' protocol"))
  }
}
