import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `apiary` command, as a C entry point the launcher finds with `dlsym`.
///
/// The `apiary` executable is a tiny launcher that opens `libApiary.so` and calls this, so the
/// host and every plugin bind to one copy of the runtime. It runs the command on the Swift
/// concurrency pool and exits the process with the command's status; it never returns.
@_cdecl("apiary_main")
public func apiaryMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> Int32 {
  let words = (1..<max(Int(argc), 1)).compactMap { argv[$0].map { String(cString: $0) } }
  Task { exit(await Host.main(words)) }
  dispatchMain()
}
