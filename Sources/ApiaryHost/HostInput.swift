import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the serving host reacts to: lines on standard input, its end, and SIGINT/SIGTERM.
enum HostInput: Sendable {
  case line(String)
  case endOfInput
  case signal(Int32)

  /// Merges standard input and the termination signals into one stream. Standard input is read
  /// on a dedicated thread so a blocking read never holds a Swift concurrency thread.
  static func stream() -> AsyncStream<HostInput> {
    AsyncStream { continuation in
      let sources = [SIGINT, SIGTERM].map { number in
        ignoreDefaultAction(of: number)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { continuation.yield(.signal(number)) }
        source.resume()
        return source
      }
      let reader = Thread {
        while let line = readLine() { continuation.yield(.line(line)) }
        continuation.yield(.endOfInput)
      }
      reader.start()
      let keepAlive = SignalSources(sources)
      continuation.onTermination = { _ in keepAlive.cancel() }
    }
  }
}

/// Turns off the default action of signal `number` (terminating the process), so that only the
/// Dispatch source sees it. Written once per C library: `HostInput.signal` would shadow an
/// unqualified `signal` inside the enum.
private func ignoreDefaultAction(of number: Int32) {
  #if canImport(Glibc)
    _ = Glibc.signal(number, SIG_IGN)
  #elseif canImport(Musl)
    _ = Musl.signal(number, SIG_IGN)
  #elseif canImport(Darwin)
    _ = Darwin.signal(number, SIG_IGN)
  #endif
}

/// Holds the signal sources for the life of the stream.
private final class SignalSources: @unchecked Sendable {
  // Sendable: `sources` is written once in init and DispatchSource.cancel() is thread-safe.
  private let sources: [any DispatchSourceSignal]
  init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
  func cancel() {
    for source in sources { source.cancel() }
  }
}
