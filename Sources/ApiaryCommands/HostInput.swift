import ApiarySupport
import Dispatch

/// The lines of standard input, for `apiary run` (``InputLines``: a line too long to keep is
/// a failure in its place).
///
/// They are read on a dedicated thread, so a blocking read never holds a Swift concurrency thread,
/// and at most two batches of ``batchSize`` lines wait to be handled: a producer faster than the
/// host is held back by the pipe instead of growing the host's memory.
///
/// ```swift
/// for await line in HostInput() { print(line) }  // .success(text) or .failure(tooLong)
/// ```
struct HostInput: AsyncSequence, Sendable {
  /// Lines the reader reads per permit; the consumer returns a permit per batch it takes, so the
  /// reader wakes once per batch rather than once per line.
  static let batchSize = 128

  typealias Line = Result<String, InputLines.TooLong>

  private let lines: AsyncStream<Line>
  /// One permit per batch the reader may read ahead. Created empty and then filled: Dispatch
  /// traps when a semaphore is released holding less than its initial value.
  private let permits = DispatchSemaphore(value: 0)

  init() {
    permits.signal()
    permits.signal()
    let (lines, continuation) = AsyncStream.makeStream(of: Line.self)
    self.lines = lines
    let permits = permits
    DetachedThread.start(name: "apiary-stdin") {
      var input = InputLines()
      reading: while true {
        permits.wait()
        for _ in 0..<Self.batchSize {
          guard let line = input.next() else { break reading }
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
    var lines: AsyncStream<Line>.Iterator
    let permits: DispatchSemaphore
    var taken = 0

    mutating func next() async -> Line? {
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
