import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many SIGUSR1 the test's handler has seen.
private let interruptions = Atomic<Int>(0)

/// The output of a test run alone is read to its end, whatever interrupts the read.
@Suite struct AloneTestProcessTests {
  #if canImport(Glibc)
    /// A signal that interrupts the read (`EINTR`, from a handler installed without
    /// `SA_RESTART`) is retried: `readDataToEndOfFile` trapped, ending every test of the process.
    @Test func aReadInterruptedByASignalGoesOn() throws {
      var counting = sigaction()
      counting.__sigaction_handler.sa_handler = { _ in
        interruptions.add(1, ordering: .sequentiallyConsistent)
      }
      sigemptyset(&counting.sa_mask)
      var previous = sigaction()
      sigaction(SIGUSR1, &counting, &previous)
      defer { sigaction(SIGUSR1, &previous, nil) }
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      // Close-on-exec: a child another test spawns must not hold the write end open.
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      defer { close(ends[0]) }
      let reader = Reader(descriptor: ends[0])
      // Three times: once blocked in `read` (system call 0 on x86-64, 63 on ARM64), interrupt
      // it, and wait for the handler. Where the file cannot be read, the signal may come before
      // the read (the test then proves less).
      let readCall = Self.isARM ? "63 " : "0 "
      let syscall = reader.task.map { "/proc/self/task/\($0)/syscall" } ?? ""
      for _ in 0..<3 {
        while let call = Self.text(of: syscall), !call.hasPrefix(readCall) { sched_yield() }
        let seen = interruptions.load(ordering: .sequentiallyConsistent)
        #expect(pthread_kill(reader.thread, SIGUSR1) == 0)
        while interruptions.load(ordering: .sequentiallyConsistent) == seen { sched_yield() }
      }
      var bytes = Array("the output".utf8)
      #expect(write(ends[1], &bytes, bytes.count) == bytes.count)
      close(ends[1])
      #expect(String(decoding: reader.output(), as: UTF8.self) == "the output")
    }

    private static var isARM: Bool {
      #if arch(arm64)
        true
      #else
        false
      #endif
    }

    private static func text(of path: String) -> String? {
      (try? Data(contentsOf: URL(fileURLWithPath: path))).map {
        String(decoding: $0, as: UTF8.self)
      }
    }

    /// ``AloneTestProcess/readToEnd(_:)`` on a thread of its own, which tells its task id.
    private final class Reader: @unchecked Sendable {
      private let done = DispatchSemaphore(value: 0)
      private let lock = NSLock()
      private var taskID: String?
      private var pthread = pthread_t()
      private var data = Data()

      init(descriptor: Int32) {
        let started = DispatchSemaphore(value: 0)
        Thread {
          // "/proc/PID/task/TID"
          let link =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
          self.lock.withLock {
            self.taskID = link.map { String($0.split(separator: "/").last ?? "") }
            self.pthread = pthread_self()
          }
          // Threads of Swift's pool, and those they start, block it.
          var signals = sigset_t()
          sigemptyset(&signals)
          sigaddset(&signals, SIGUSR1)
          pthread_sigmask(SIG_UNBLOCK, &signals, nil)
          started.signal()
          let data = AloneTestProcess.readToEnd(descriptor)
          self.lock.withLock { self.data = data }
          self.done.signal()
        }.start()
        started.wait()
      }

      var task: String? { lock.withLock { taskID } }
      var thread: pthread_t { lock.withLock { pthread } }

      func output() -> Data {
        done.wait()
        return lock.withLock { data }
      }
    }
  #endif
}
