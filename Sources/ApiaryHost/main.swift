#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(await Host.main(Array(CommandLine.arguments.dropFirst())))
