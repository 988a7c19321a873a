import ApiarySupport
import Dispatch

/// The lines of standard input, for `apiary run`.
///
/// They are read on a dedicated thread, so a blocking read never holds a Swift concurrency thread,
/// and at most two batches of ``batchSize`` lines wait to be handled: a producer faster than the
/// host is held back by the pipe instead of growing the host's memory.
///
/// ```swift
/// for await line in HostInput() { print(line) }
/// ```
struct HostInput: AsyncSequence, Sendable {
  /// Lines the reader reads per permit; the consumer returns a permit per batch it takes, so the
  /// reader wakes once per batch rather than once per line.
  static let batchSize = 128

  private let lines: AsyncStream<String>
  /// One permit per batch the reader may read ahead. Created empty and then filled: Dispatch
  /// traps when a semaphore is released holding less than its initial value.
  private let permits = DispatchSemaphore(value: 0)

  init() {
    permits.signal()
    permits.signal()
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    self.lines = lines
    let permits = permits
    DetachedThread.start(name: "apiary-stdin") {
      reading: while true {
        permits.wait()
        for _ in 0..<Self.batchSize {
          guard let line = readLine() else { break reading }
          continuation.yield(line)
        }
      }
      continuation.finish()
    }
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(lines: lines.makeAsyncIterator(), permits: permits)
  }

  struct Iterator: AsyncIteratorProtocol {
    var lines: AsyncStream<String>.Iterator
    let permits: DispatchSemaphore
    var taken = 0

    mutating func next() async -> String? {
      guard let line = await lines.next() else { return nil }
      taken += 1
      if taken == HostInput.batchSize {
        permits.signal()
        taken = 0
      }
      return line
    }
  }
}
