#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a file could not be written, as the C library words it (`No such file or directory`,
/// `Is a directory`), instead of Foundation's error domain, code and user info.
enum FileFailure {
  static func reason(_ error: any Error) -> String {
    var next: (any Error)? = error
    while let current = next {
      if let posix = current as? POSIXError {
        return String(cString: strerror(posix.code.rawValue))
      }
      next = (current as? CocoaError)?.underlying
    }
    return "\(error)"
  }
}
