import Apiary
import ApiaryCommands
import Foundation

/// Plugins built apart from the host (``PluginFactory``), three questions:
/// - loading one plugin through the host's load gate, `dlopen` and entry call, against a bare
///   `dlopen` of the same file with the same flags; and loading 100 at once (one gate pass, as
///   a host loads an application's plugins) against a bare `dlopen` of each;
/// - booting an application of 100 plugin modules, against the same application with the
///   modules' twins (``TwinModule``, ``TwinTarget``: the same code) compiled into this process;
/// - a warm mediator call and a warm resolve into a plugin, against the same into its twin.
///
/// A library is opened once per process (a second `dlopen` of a file is a reference count), so
/// the first two take one sample per fresh process: this executable run as a child
/// (``PluginChild``), which times only the operation (the process start and the loading of
/// `libApiary.so` and the Swift runtime, which a host has done before it loads a plugin, are
/// outside the timing) and prints the nanoseconds. Children of the two cases alternate.
enum PluginSuite {
  static let section = "plugins"
  static let bootCount = 100

  static func run(_ harness: Harness, into report: inout Report) async {
    let smoke = harness.samples <= 2
    let count = smoke ? 2 : bootCount
    let began = Harness.now()
    let libraries: [String]
    do {
      libraries = try PluginFactory().libraries(count)
    } catch {
      report.add(Row(section: section, name: "plugins", peerName: "-", note: "\(error)"))
      return
    }
    printError(
      "  \(count) generated plugins ready in " + Report.formatNanos(Double(Harness.now() - began)))
    let samples = smoke ? 1 : 31
    // One row: `mode` (gated or entry) against a bare `dlopen` of `library`, each in a child
    // that loads `first` before it, untimed.
    func load(_ name: String, _ mode: String, _ library: String, after first: [String] = []) {
      let (loaded, bare, note) = alternate(
        samples, [mode, library] + first, ["bare", library] + first)
      report.add(
        Row(
          section: section, name: name, apiary: loaded, peerName: "bare dlopen", peer: bare,
          note: note))
    }
    load("load the first plugin: gate + dlopen + entry", "gated", libraries[0])
    // The share of a first load that any gate would have to fit beside: the entry call's own
    // first run, without a gate.
    load("load the first plugin without a gate: dlopen + entry", "entry", libraries[0])
    load(
      "load a second plugin: gate + dlopen + entry", "gated", libraries[0], after: [libraries[1]])

    // The sample's NotesPlugin, a real plugin with a contract library (libNotebookKit.so),
    // when its release build is there (CI builds it before the benchmarks).
    let notes = PluginFactory().root.appendingPathComponent(
      "Plugins/Notebook/.build/release/libNotesPlugin.so"
    ).path
    if FileManager.default.fileExists(atPath: notes) {
      load("load the sample NotesPlugin first: gate + dlopen + entry", "gated", notes)
      load(
        "load the sample NotesPlugin second: gate + dlopen + entry", "gated", notes,
        after: [libraries[1]])
    } else {
      printError("  \(notes) not built: no sample plugin rows")
    }

    let bootSection = "plugins, \(count) plugins"
    // An application's plugins, as a host loads them: one gate pass, then each opened.
    let (all, bareAll, allNote) = alternate(
      smoke ? 1 : 11, ["gated-all"] + libraries, ["bare-all"] + libraries)
    report.add(
      Row(
        section: bootSection, name: "load all at once: one gate pass + dlopen + entry, per plugin",
        apiary: all?.per(count), peerName: "bare dlopen of each", peer: bareAll?.per(count),
        note: allNote))
    do {
      let plugins = try PluginApplication(libraries: libraries).write()
      let twins = try PluginApplication(libraries: libraries, twins: true).write()
      defer {
        for directory in [plugins, twins] { try? FileManager.default.removeItem(atPath: directory) }
      }
      let (booted, twinBooted, bootNote) = alternate(
        smoke ? 1 : 11, ["boot", plugins], ["boot", twins])
      report.add(
        Row(
          section: bootSection, name: "boot, fresh process, per plugin", apiary: booted?.per(count),
          peerName: "same modules in process", peer: twinBooted?.per(count), note: bootNote))
    } catch {
      report.add(Row(section: bootSection, name: "boot", peerName: "-", note: "\(error)"))
    }
    await warmCalls(harness, library: libraries[0], into: &report)
  }

  /// A perform and a resolve into plugin 0 and into its twin, in one kernel, warm.
  private static func warmCalls(_ harness: Harness, library: String, into report: inout Report)
    async
  {
    let kernel: Kernel
    let directory: String
    do {
      directory = try PluginApplication(libraries: [library], withTwin: true).write()
      kernel = try EmbeddedHost.kernel(manifestsAt: directory)
      try await kernel.boot()
    } catch {
      report.add(Row(section: section, name: "warm calls", peerName: "-", note: "\(error)"))
      return
    }
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (mediator, container) = (kernel.mediator, kernel.container)
    let params: [String: any Sendable] = ["a": 1, "b": 2]
    let problems = check(mediator, container, params)
    let note = problems.isEmpty ? nil : problems.joined(separator: "; ")
    func perform(_ target: String) -> (Int) -> Void {
      { n in
        for _ in 0..<n {
          blackHole(
            try? mediator.perform(target: target, action: "add", params: params, cache: true))
        }
      }
    }
    func resolve(_ name: String) -> (Int) -> Void {
      { n in
        for _ in 0..<n {
          blackHole(
            try? container.resolve((any CustomStringConvertible & Sendable).self, name: name))
        }
      }
    }
    let measured = harness.measureInterleaved([
      perform("p0"), perform("twin"), resolve("p0"), resolve("twin"),
    ])
    report.add(
      Row(
        section: section, name: "perform, cached target, into a plugin", apiary: measured[0],
        peerName: "same target in process", peer: measured[1], note: note))
    report.add(
      Row(
        section: section, name: "singleton resolve, bound by a plugin", apiary: measured[2],
        peerName: "same binding in process", peer: measured[3], note: note))
    await kernel.shutdown()
  }

  /// What the warm cases call, checked once: plugin 0's and the twin's `add` and service.
  private static func check(
    _ mediator: Mediator, _ container: Container, _ params: [String: any Sendable]
  ) -> [String] {
    var problems: [String] = []
    for (target, expected) in [("p0", "plugin"), ("twin", "twin")] {
      let sum = try? mediator.perform(target: target, action: "add", params: params, cache: true)
      if sum as? Int != 3 { problems.append("\(target).add returned \(String(describing: sum))") }
      let service = try? container.resolve(
        (any CustomStringConvertible & Sendable).self, name: target)
      if service?.description != expected {
        problems.append("\(target)'s service is \(String(describing: service))")
      }
    }
    return problems
  }

  /// `samples` runs of child `a` and of child `b`, in turn; nil measurements and a note when a
  /// child failed.
  private static func alternate(_ samples: Int, _ a: [String], _ b: [String]) -> (
    Measurement?, Measurement?, String?
  ) {
    var (first, second): ([Double], [Double]) = ([], [])
    do {
      for _ in 0..<samples {
        first.append(try PluginChild.spawn(a))
        second.append(try PluginChild.spawn(b))
      }
    } catch {
      return (nil, nil, "\(error)")
    }
    return (
      Measurement(totals: first, operations: 1, allocations: nil),
      Measurement(totals: second, operations: 1, allocations: nil), nil
    )
  }
}

/// Manifests for the plugin cases, in a temporary directory: one module per library (module
/// `pN` of type `BenchPluginNNN.LoadedModule`, with target `pN`), or the same modules of the
/// in-process twin types, and optionally one twin module `twin` besides the plugins.
struct PluginApplication {
  let libraries: [String]
  var twins = false
  var withTwin = false

  func write() throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-bench-plugins-\(UUID().uuidString)")
    let modules = directory.appendingPathComponent("modules")
    try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
    let app = #"{"schemaVersion": 1, "name": "Plugins", "scheme": "bench", "modules": ["modules"]}"#
    try Data(app.utf8).write(to: directory.appendingPathComponent("app.json"))
    var entries: [(String, String)] = []
    for (index, library) in libraries.enumerated() {
      let plugin = PluginFactory.name(index)
      entries.append(
        twins
          ? (
            "p\(index)",
            Self.module("p\(index)", "ApiaryBench.TwinModule", "ApiaryBench.TwinTarget")
          )
          : (
            "p\(index)",
            Self.module(
              "p\(index)", "\(plugin).LoadedModule", "\(plugin).LoadedTarget",
              library: library)
          ))
    }
    if withTwin {
      entries.append(
        ("twin", Self.module("twin", "ApiaryBench.TwinModule", "ApiaryBench.TwinTarget")))
    }
    for (name, text) in entries {
      try Data(text.utf8).write(to: modules.appendingPathComponent("\(name).json"))
    }
    return directory.path
  }

  private static func module(
    _ name: String, _ type: String, _ target: String, library: String? = nil
  )
    -> String
  {
    let plugin =
      library.map { #", "library": "\#($0)", "version": "\#(PluginFactory.version)""# } ?? ""
    return """
      {"schemaVersion": 1, "modules": [{"name": "\(name)", "type": "\(type)"\(plugin),
        "targets": [{"name": "\(name)", "type": "\(target)", "actions": [
          {"name": "add", "returns": "int", "parameters": [
            {"name": "a", "type": "int", "required": true},
            {"name": "b", "type": "int", "required": true}]}]}]}]}
      """
  }
}
