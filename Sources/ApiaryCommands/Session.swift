import Apiary
import ApiaryProcess
import ApiaryTooling

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns one line of `apiary run`'s standard input into an action on the running kernel;
/// ``SessionLoop`` decides when each line runs, by its ``Kind``.
struct Session {
  let kernel: Kernel

  /// How a line is scheduled beside the others (``SessionLoop``).
  enum Kind {
    /// A URL, `:post` or `:resolve`: runs module code, so it may take long; runs beside the
    /// calls in flight.
    case call
    /// `:modules`, `:help`, a blank line, a comment, a line that is no command, a `:post` whose
    /// parameters are refused (nothing runs): answered at once, so in input order.
    case look
    /// `:load`, `:remove`, `:restart`: changes the application, after the calls in flight.
    case change
    /// `:wait`: waits for the calls in flight.
    case wait
  }

  static func kind(of line: String) -> Kind {
    let text = line.trimmingWhitespace()
    guard text.hasPrefix(":") else { return text.isEmpty || text.hasPrefix("#") ? .look : .call }
    let words = text.dropFirst().split(separator: " ")
    switch (words.first ?? "", words.count) {
    case ("post", 2...):
      return (try? PostPayload.parse(words.dropFirst(2).map(String.init))) == nil ? .look : .call
    case ("resolve", 2...3): return .call
    case ("load", 2), ("remove", 2), ("restart", 2): return .change
    case ("wait", 1): return .wait
    default: return .look
    }
  }

  /// The lines to print for `line`; none for blank lines, comments and `:wait` (which
  /// ``SessionLoop`` carries out).
  func handle(_ line: String) async -> [String] {
    let text = line.trimmingWhitespace()
    guard !text.isEmpty, !text.hasPrefix("#") else { return [] }
    guard text.hasPrefix(":") else { return [await call(text)] }
    let words = text.dropFirst().split(separator: " ").map(String.init)
    switch (words.first ?? "", words.count) {
    case ("help", _): return RunCommand.usage.lines
    case ("wait", 1): return []
    case ("modules", 1):
      return await kernel.moduleStates.map { Self.line($0.name, $0.state) }
    case ("restart", 2):
      return [await restart(words[1])]
    case ("remove", 2):
      do {
        let failure = try await kernel.remove(words[1])
        return ["removed '\(words[1])'" + (failure.map { " (its tearDown failed: \($0))" } ?? "")]
      } catch {
        return ["error: \(error)\(await NotFoundHint.text(for: error, in: kernel))"]
      }
    case ("resolve", 2...3):
      return [resolve(words[1], name: words.count == 3 ? words[2] : nil)]
    case ("load", 2):
      return await load(words[1])
    case ("post", 2...):
      let payload: [String: any Sendable]
      do {
        payload = try PostPayload.parse(words.dropFirst(2))
      } catch {
        return ["error: \(error)"]
      }
      let report = await kernel.events.post(words[1], payload: payload)
      return [report.description + NotFoundHint.text(for: report, in: kernel.events)]
    default:
      guard let syntax = Self.syntax(of: words.first ?? "") else {
        return ["error: unknown command '\(text)'; type ':help'"]
      }
      return ["error: usage: \(syntax)"]
    }
  }

  /// How `:help` writes the command `name` (`:post EVENT [key=value ...]`); nil when there is
  /// no such command.
  static func syntax(of name: String) -> String? {
    for line in RunCommand.usage.split(separator: "\n") {
      let entry = line.drop { $0 == " " }
      let command = entry.prefix { $0 != " " }
      guard command.hasPrefix(":"), command.dropFirst() == name else { continue }
      let columns = entry.split(separator: "  ", maxSplits: 1)
      return columns.first.map(String.init)
    }
    return nil
  }

  /// Adds the modules of a module manifest file, their plugin libraries checked by the same
  /// load gate as at boot. Every module of the file is required, and the file loads whole or not
  /// at all: when one fails, those added before it are removed again. Manifest and gate problems
  /// are listed one per line, and the gate's notes go to standard error, as at boot. The
  /// modules are added in one change, so no other change sees a part of the file.
  private func load(_ file: String) async -> [String] {
    // A process-placed module's child reads the application manifest from its directory.
    let application = kernel.application.source?.file ?? ""
    let directory = application.lastIndex(of: "/").map { String(application[..<$0]) } ?? "."
    var loader = ApplicationLoader(plugins: .load, catalog: kernel.catalog, directory: directory)
    let loaded = Result { () throws(ApplicationLoader.Failure) in try loader.load(file: file) }
    for note in loader.notes { StandardError.print("note: \(note)") }
    let modules: [ModuleManifest]
    do {
      modules = try loaded.get().filter(\.isEnabled)
    } catch {
      return Host.errorLines(error) + Self.workingDirectoryNote(for: file)
    }
    do {
      try await kernel.add(Self.dependenciesFirst(modules))
    } catch {
      // May quote a module's own error: one line.
      guard !error.withdrawn.isEmpty else { return ["error: \(error)"] }
      let withdrawn = error.withdrawn.reversed().map { "'\($0)'" }.joined(separator: ", ")
      return [
        "error: loading '\(error.module)' failed: \(error); withdrew the file's other modules: "
          + withdrawn
      ]
    }
    return ["loaded \(modules.map { "'\($0.name)'" }.joined(separator: ", "))"]
  }

  /// For a relative path that names no file, where it was looked for: `:load` takes it from
  /// the directory `apiary` runs in, not from the manifests.
  private static func workingDirectoryNote(for file: String) -> [String] {
    guard !file.hasPrefix("/"), access(file, F_OK) != 0 else { return [] }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return [] }
    let directory = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return ["  (a relative path is taken from the directory apiary runs in: \(directory))"]
  }

  /// `modules` with each after those of them it depends on, in file order otherwise; modules
  /// in a cycle stay in file order, and adding them fails naming the missing dependency.
  static func dependenciesFirst(_ modules: [ModuleManifest]) -> [ModuleManifest] {
    var ordered: [ModuleManifest] = []
    var rest = modules
    while !rest.isEmpty {
      let waiting = Set(rest.map(\.name))
      let ready = rest.firstIndex { !$0.dependencies.contains(where: waiting.contains) }
      guard let ready else { return ordered + rest }
      ordered.append(rest.remove(at: ready))
    }
    return ordered
  }

  /// A module, its state and, for one placed in a child process, the child's:
  /// `search       running  (process: running, pid 4242, 1 restart, last exit: …)`.
  static func line(_ name: String, _ state: ModuleState) -> String {
    let child = ProcessSupervision.status(of: name).map { "  (process: \($0))" }
    return "\(name.padding(12)) \(state)\(child ?? "")"
  }

  /// Restarts a process-placed module's child, which loads its plugin library anew. A module
  /// whose child failed for good is set up, started and readied again like a `:load`ed one; if
  /// that fails, it stays failed (``Kernel/restart(_:)``).
  private func restart(_ name: String) async -> String {
    let manifest = await kernel.manifest(of: name)
    if let supervisor = ProcessSupervision.supervisor(of: name) {
      let grace = Duration.manifestSeconds(manifest?.startTimeout ?? 10)
      do {
        let child = try await supervisor.restart(grace: grace)
        return "restarted '\(name)': pid \(child.process.pid)"
      } catch {
        return "error: restarting '\(name)' failed: \(error)"
      }
    }
    let state = await kernel.state(of: name)
    guard state != nil else {
      return "error: no module named '\(name)'"
        + Suggestion.hint(for: name, in: await kernel.moduleStates.map(\.name))
    }
    guard let manifest, manifest.placement == .process
    else { return "error: '\(name)' is not a module placed in a child process" }
    switch state {
    case .failed?, .failedWhileRunning?: break
    default: return "error: '\(name)' is not running"
    }
    do {
      try await kernel.restart(manifest)
      return "restarted '\(name)'"
    } catch {
      return "error: restarting '\(name)' failed: \(error)"
    }
  }

  /// Resolves a service by its protocol's manifest name in the host, the way a module would:
  /// `NotebookKit.NoteStore → StorePlugin.FileNoteStore #1f2e3d` (the instance's identity).
  private func resolve(_ protocolName: String, name: String?) -> String {
    guard let found = kernel.catalog.lookup(protocolName) else {
      return
        "error: no type named '\(protocolName)'"
        + NotFoundHint.text(forType: protocolName, in: kernel.container)
    }
    func resolve<T>(_ type: T.Type) throws -> Any { try kernel.container.resolve(type, name: name) }
    do {
      let instance = try resolve(found)
      let implementation = _typeName(type(of: instance), qualified: true)
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
      return "error: " + (await CallFailure.text(error, calling: url, in: kernel))
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
