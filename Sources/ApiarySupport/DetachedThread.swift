import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for work that blocks (reading a pipe, waiting for a child, watching for a
/// signal), so it holds no thread of Swift's pool. Detached: it ends when `body` returns.
///
/// ```swift
/// DetachedThread.start(name: "apiary-signals") { print("on a thread of its own") }
/// ```
package enum DetachedThread {
  /// Runs `body` on a new thread named `name` (its first 15 bytes, as the system keeps them).
  /// When no thread can be made, `body` runs on a serial dispatch queue of its own instead,
  /// which also gets a thread outside Swift's pool: the work is never dropped.
  package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
    let work = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let started = pthread_create(&thread, nil, { DetachedThread.enter($0) }, work)
    if started == 0 {
      #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
      #else
        pthread_detach(thread)
      #endif
    } else {
      let work = Unmanaged<Work>.fromOpaque(work).takeRetainedValue()
      DispatchQueue(label: name).async { work.body() }
    }
  }

  /// The new thread's start: takes over the ``Work`` that `start` retained, and runs it.
  private static func enter(_ work: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let work else { return nil }
    Unmanaged<Work>.fromOpaque(work).takeRetainedValue().run()
    return nil
  }

  private final class Work: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }

    func run() {
      let short = String(name.utf8.prefix(15)) ?? "apiary"
      #if canImport(Darwin)
        _ = pthread_setname_np(short)
      #else
        _ = DetachedThread.setName?(pthread_self(), short)
      #endif
      body()
    }
  }

  #if !canImport(Darwin)
    /// `pthread_setname_np`, which the C library has but its Swift module does not declare.
    private typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    private static let setName: SetName? = dlsym(nil, "pthread_setname_np").map {
      unsafeBitCast($0, to: SetName.self)
    }
  #endif
}
