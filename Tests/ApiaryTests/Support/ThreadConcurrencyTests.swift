import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ApiarySupport

/// The threading tools the host uses in place of Foundation's `Thread` and `NSRecursiveLock`
/// (the library links FoundationEssentials only).
@Suite struct ThreadConcurrencyTests {
  /// Two threads add to a counter 10,000 times each, inside the lock taken twice: its holder
  /// takes it again without waiting, and the other thread waits for the last release (the
  /// thread sanitizer would report a race on the counter).
  @Test func aRecursiveLockIsTakenAgainByItsHolderAndExcludesOthers() {
    let lock = RecursiveLock()
    let counter = Counter()
    let done = DispatchSemaphore(value: 0)
    for name in ["apiary-test-a", "apiary-test-b"] {
      DetachedThread.start(name: name) {
        for _ in 0..<10_000 {
          lock.lock()
          lock.lock()
          counter.value += 1
          lock.unlock()
          lock.unlock()
        }
        done.signal()
      }
    }
    done.wait()
    done.wait()
    lock.lock()
    #expect(counter.value == 20_000)
    lock.unlock()
  }

  /// The body runs on a thread of its own, which carries the name's first 15 bytes (all the
  /// system keeps).
  @Test func aDetachedThreadRunsTheBodyOnANamedThreadOfItsOwn() {
    let caller = pthread_self()
    let seen = Mutex<(isOther: Bool, name: String)?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start(name: "apiary-test-thread") {
      let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
      seen.withLock { $0 = (pthread_equal(pthread_self(), caller) == 0, name) }
      done.signal()
    }
    done.wait()
    let (isOther, name) = seen.withLock { $0 } ?? (false, "")
    #expect(isOther)
    #if os(Linux)
      #expect(name == "apiary-test-thr\n")
    #endif
  }
}

/// A counter that a lock guards: `@unchecked Sendable`, as the lock is what makes it safe.
private final class Counter: @unchecked Sendable {
  var value = 0
}
