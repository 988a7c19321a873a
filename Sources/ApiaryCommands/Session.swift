import Apiary
import ApiaryTooling

/// Turns one line of `apiary run`'s standard input into an action on the running kernel.
struct Session {
  let kernel: Kernel

  /// The lines to print for `line`; none for blank lines and comments.
  func handle(_ line: String) async -> [String] {
    let text = line.trimmingWhitespace()
    guard !text.isEmpty, !text.hasPrefix("#") else { return [] }
    guard text.hasPrefix(":") else { return [await call(text)] }
    let words = text.dropFirst().split(separator: " ").map(String.init)
    switch (words.first ?? "", words.count) {
    case ("help", _): return RunCommand.usage.lines
    case ("modules", 1):
      return await kernel.moduleStates.map { "\($0.name.padding(12)) \($0.state)" }
    case ("remove", 2):
      do {
        try await kernel.remove(words[1])
        return ["removed '\(words[1])'"]
      } catch {
        return ["error: \(error)"]
      }
    case ("resolve", 2...3):
      return [resolve(words[1], name: words.count == 3 ? words[2] : nil)]
    case ("load", 2):
      return [await load(words[1])]
    case ("post", 2...):
      var payload: [String: any Sendable] = [:]
      for pair in words.dropFirst(2) {
        let parts = pair.split(separator: "=", maxSplits: 1)
        payload[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
      }
      return [await kernel.events.post(words[1], payload: payload).description]
    default:
      return ["error: unknown command '\(text)'; type ':help'"]
    }
  }

  /// Adds the modules of a module manifest file, their plugin libraries checked by the same
  /// load gate as at boot. Every module of the file is required.
  private func load(_ file: String) async -> String {
    // A process-placed module's child reads the application manifest from its directory.
    let application = kernel.application.source?.file ?? ""
    let directory = application.lastIndex(of: "/").map { String(application[..<$0]) } ?? "."
    var loader = ApplicationLoader(plugins: .load, catalog: kernel.catalog, directory: directory)
    do {
      let modules = try loader.load(file: file).filter(\.isEnabled)
      for module in modules { try await kernel.add(module) }
      return "loaded \(modules.map { "'\($0.name)'" }.joined(separator: ", "))"
    } catch {
      return "error: \(error)"
    }
  }

  /// Resolves a service by its protocol's manifest name in the host, the way a module would:
  /// `NotebookKit.NoteStore → StorePlugin.FileNoteStore #1f2e3d` (the instance's identity).
  private func resolve(_ protocolName: String, name: String?) -> String {
    guard let found = kernel.catalog.lookup(protocolName) else {
      return "error: no type named '\(protocolName)'"
    }
    func resolve<T>(_ type: T.Type) throws -> Any { try kernel.container.resolve(type, name: name) }
    do {
      let instance = try resolve(found)
      let implementation = String(reflecting: type(of: instance))
      guard type(of: instance) is AnyClass else { return "\(protocolName) → \(implementation)" }
      let identity = Unmanaged.passUnretained(instance as AnyObject).toOpaque()
      return "\(protocolName) → \(implementation) \(identity)"
    } catch {
      return "error: \(error)"
    }
  }

  /// A remote call through the mediator's URL entry.
  private func call(_ url: String) async -> String {
    do {
      return try ResultRenderer.render(try await kernel.mediator.open(url))
    } catch {
      return "error: \(error)"
    }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[start...end])
  }
}
