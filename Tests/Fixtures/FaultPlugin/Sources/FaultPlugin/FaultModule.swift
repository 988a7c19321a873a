import Apiary
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A module that misbehaves on purpose, for the host's tests (`Tests/ApiaryHostTests`), which
/// build this package apart from the host and name its library in their manifests.
///
/// Config: `"hangIn": "setUp" | "start" | "tearDown"` blocks that hook's thread for good, as a
/// deadlocked module would; `"failIn"`, the same names, makes that hook throw; `"startGate":
/// PATH` makes `start` wait until the file at PATH exists; `"floodStandardError": BYTES` makes
/// `setUp` write that much to standard error; `"printInStart": TEXT` makes `start` `print` TEXT
/// (standard output).
/// Every hook first prints `fault NAME: HOOK` on standard error, so a test knows where it is.
///
/// ```json
/// {"name": "stuck", "type": "FaultPlugin.FaultModule", "library": "…/libFaultPlugin.so",
///  "version": "1.0.0", "config": {"hangIn": "setUp"}}
/// ```
final class FaultModule: Module {
  init() {}

  func setUp(_ context: ModuleContext) throws {
    try enter("setUp", context)
    let flood = try context.config.int("floodStandardError", default: 0)
    if flood > 0 { Fault.announce(String(repeating: "flood\n", count: flood / 6)) }
  }

  func start(_ context: ModuleContext) async throws {
    try enter("start", context)
    let text = try context.config.string("printInStart", default: "")
    if !text.isEmpty { print(text) }
    let gate = try context.config.string("startGate", default: "")
    if !gate.isEmpty {
      while !FileManager.default.fileExists(atPath: gate) {
        try await Task.sleep(for: .milliseconds(10))
      }
    }
  }

  func tearDown(_ context: ModuleContext) async throws {
    try enter("tearDown", context)
  }

  private func enter(_ hook: String, _ context: ModuleContext) throws {
    Fault.announce("fault \(context.name): \(hook)")
    if try context.config.string("hangIn", default: "") == hook { Fault.blockForever() }
    if try context.config.string("failIn", default: "") == hook { throw Refused(hook: hook) }
  }

  struct Refused: Error, CustomStringConvertible {
    let hook: String
    var description: String { "fault refused to \(hook)" }
  }
}

/// The `faults` target: `hang` blocks its thread for good; `gate?path=FIFO` blocks until a
/// test opens the named pipe at `path` for writing and closes it, then answers `"passed"`;
/// `pid` answers the process id;
/// `image` the inode of the mapped `libFaultPlugin.so` (a rebuilt library is a new file);
/// `crash` ends the process (placed in a child, only the child) while the call is in flight:
/// `how=fatalError`, `recursion` (a stack overflow, SIGSEGV) or `exit` (status 3); `callMissing`
/// calls target `missing`, which no module declares; `call?target=T&action=A` calls `T/A`.
final class FaultTarget: Target {
  let mediator: Mediator

  init(context: ModuleContext) throws {
    mediator = context.mediator
  }

  static let actions: ActionTable<FaultTarget> = [
    "hang": .sync { _, _ in
      Fault.announce("fault: hang")
      Fault.blockForever()
    },
    "gate": .sync { _, params in
      let path = try params.string("path")
      Fault.announce("fault: gate \(path)")
      Fault.pass(gate: path)
      return "passed"
    },
    "pid": .sync { _, _ in Int(getpid()) },
    "callMissing": .sync { target, _ in try target.mediator.perform(target: "missing", action: "x")
    },
    "call": .async { target, params in
      try await target.mediator.perform(
        target: try params.string("target"), action: try params.string("action"))
    },
    "image": .sync { _, _ in Fault.image() },
    "crash": .sync { _, params in
      let how = try params.string("how")
      Fault.announce("fault: crash \(how)")
      switch how {
      case "fatalError": fatalError("crash requested")
      case "recursion": return Fault.recurse(1)
      default: exit(3)
      }
    },
  ]
}

enum Fault {
  static func announce(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// The inode of the `libFaultPlugin.so` this process mapped, from `/proc/self/maps`.
  static func image() -> String {
    // Read to the end: /proc files report a size of 0.
    let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data()
    let maps = String(decoding: data, as: UTF8.self)
    let line = maps.split(separator: "\n").first { $0.hasSuffix("/libFaultPlugin.so") }
    let fields = line?.split(separator: " ", omittingEmptySubsequences: true) ?? []
    return fields.dropFirst(4).first.map(String.init) ?? ""
  }

  /// Calls itself without end: the stack overflows (SIGSEGV).
  static func recurse(_ depth: Int) -> Int {
    // Never true before the stack runs out; it keeps the compiler from calling this an endless
    // recursion (a warning).
    guard depth < Int.max else { return depth }
    var frame = [Int](repeating: depth, count: 64)
    frame[depth % 64] = recurse(depth + 1)
    return frame.reduce(0, &+)
  }

  /// Waits until a writer opens the named pipe at `path` and closes it: opening its read end
  /// waits for a writer, reading it waits for the writer to close.
  static func pass(gate path: String) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return }
    var byte: UInt8 = 0
    var count = 1
    while count > 0 || (count < 0 && errno == EINTR) { count = read(descriptor, &byte, 1) }
    close(descriptor)
  }

  /// Holds the calling thread, never returning and never suspending.
  static func blockForever() -> Never {
    while true { sleep(3600) }
  }
}
