#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The `apiary` executable: opens the Apiary library (runtime and commands) by bare name, found
// through this executable's run path (`$ORIGIN`), and hands the command line to `apiary_main`.
// It links nothing of Apiary itself, so the host and every plugin share the library's one copy.

#if canImport(Darwin)
  let library = "libApiary.dylib"
#else
  let library = "libApiary.so"
#endif

typealias Entry =
  @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) ->
  Int32

func failure(_ what: String) -> Never {
  let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
  let message = "apiary: \(what): \(reason)\n"
  _ = message.withCString { write(2, $0, strlen($0)) }
  exit(127)
}

// Lazily bound, as a normally linked executable is: binding every function of the library and of
// the libraries it brings (Foundation's thousands) at once cost every command about 2 ms. Missing
// data symbols still fail here. Plugins are opened with RTLD_NOW, by the load gate's loader.
guard let handle = dlopen(library, RTLD_LAZY | RTLD_GLOBAL) else {
  failure("cannot load \(library) (it belongs next to this executable)")
}
guard let symbol = dlsym(handle, "apiary_main") else {
  failure("\(library) has no apiary_main")
}
let entry = unsafeBitCast(symbol, to: Entry.self)
exit(entry(CommandLine.argc, CommandLine.unsafeArgv))
