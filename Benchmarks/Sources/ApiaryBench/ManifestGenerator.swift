import Foundation

/// Writes an application of `count` generated modules to a temporary directory: `app.json` and
/// one manifest file per module under `modules/`, as plugins ship them. The directory is in
/// `/dev/shm` (memory) where it exists: this VM's disk takes about 0.5 ms to create a file, which
/// would make generating 10,000 files the slowest part of the run; a booting application reads
/// its manifests from the page cache anyway.
///
/// Module `i` depends on up to three earlier modules chosen by a fixed-seed generator, so the
/// graph (and every run) is the same; a tenth are `basic`, priorities vary, a quarter start
/// `async`, and types rotate through ``QuietModule``, ``ServiceModule`` (which also declares a
/// manifest service) and ``ListeningModule``.
///
/// ```swift
/// let app = try ManifestGenerator(count: 1_000).write()
/// let kernel = try Kernel(manifestsAt: app.directory)
/// ```
///
/// With `lazy`, nine modules in ten are `"activation": "lazy"` (every one not a multiple of 10),
/// woken by their manifest service or the `bench.tick` event; eager modules then depend only on
/// eager ones, so the lazy ones stay dormant at boot.
struct ManifestGenerator {
  let count: Int
  var seed: UInt64 = 0x5EED
  var lazy = false

  /// The directory written and the module manifests' names in generation order.
  struct Output {
    let directory: String
    let names: [String]
  }

  func write() throws -> Output {
    let memory = URL(fileURLWithPath: "/dev/shm")
    let base =
      FileManager.default.isWritableFile(atPath: memory.path)
      ? memory : FileManager.default.temporaryDirectory
    let directory = base.appendingPathComponent("apiary-bench-\(getpid())-\(count)")
    let modules = directory.appendingPathComponent("modules")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
    let app = """
      {
        "schemaVersion": 1,
        "name": "Generated\(count)",
        "scheme": "bench",
        "environment": "test",
        "modules": ["modules"]
      }
      """
    try Self.write(app, to: directory.appendingPathComponent("app.json").path)
    var random = seed
    var names: [String] = []
    for index in 0..<count {
      let name = "m\(index)"
      names.append(name)
      try Self.write(
        module(index, &random), to: modules.appendingPathComponent("\(name).json").path)
    }
    return Output(directory: directory.path, names: names)
  }

  /// One module manifest file.
  func module(_ index: Int, _ random: inout UInt64) -> String {
    var dependencies: Set<Int> = []
    let isLazy = lazy && index % 10 != 0
    if index > 0 {
      for _ in 0..<(1 + Int(next(&random) % 3)) {
        let dependency = Int(next(&random) % UInt64(index))
        dependencies.insert(isLazy || !lazy ? dependency : dependency / 10 * 10)
      }
    }
    let types = ["QuietModule", "ServiceModule", "ListeningModule"]
    let type = types[index % types.count]
    let services =
      type == "ServiceModule"
      ? """
      [{ "protocol": "ApiaryBench.ManifestService",
         "implementation": "ApiaryBench.ManifestService", "name": "m\(index)",
         "scope": "singleton" }]
      """ : "[]"
    let dependencyList = dependencies.sorted().map { "\"m\($0)\"" }.joined(separator: ", ")
    return """
      {
        "schemaVersion": 1,
        "modules": [
          {
            "name": "m\(index)",
            "type": "ApiaryBench.\(type)",
            "level": "\(index % 10 == 0 ? "basic" : "normal")",
            "priority": \(next(&random) % 10),
            "dependencies": [\(dependencyList)],
            "async": \(index % 4 == 3),
            "config": { "index": \(index) },
            "services": \(services)\(isLazy ? Self.lazyFields : "")
          }
        ]
      }
      """
  }

  /// What a lazy module adds: its activation, and an event to wake on besides its service.
  private static let lazyFields =
    ",\n      \"activation\": \"lazy\", \"activationEvents\": [\"bench.tick\"]"

  /// Plain `fopen`/`fwrite`: Foundation's `Data.write` costs several times more per file here.
  private static func write(_ text: String, to path: String) throws {
    guard let file = fopen(path, "w") else { throw CocoaError(.fileWriteUnknown) }
    defer { fclose(file) }
    var text = text
    let written = text.withUTF8 { bytes in fwrite(bytes.baseAddress, 1, bytes.count, file) }
    guard written == text.utf8.count else { throw CocoaError(.fileWriteUnknown) }
  }

  /// SplitMix64: fast, deterministic, good enough for shaping a graph.
  private func next(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
