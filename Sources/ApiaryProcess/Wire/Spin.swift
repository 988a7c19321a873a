#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bounded spinning: a thread that expects a frame soon keeps polling its input for
/// ``window`` before it blocks (spin-then-block, as glibc's adaptive mutexes, Go's scheduler and
/// Linux's `busy_poll` do).
///
/// Waking a thread that sleeps in `read` or `poll` costs 40–60 µs on a virtual machine (an
/// interrupt between virtual CPUs), more than a whole round trip may take; a thread still
/// spinning when the frame arrives reads it in well under a microsecond. The price is at most
/// one window of CPU time per frame read, on one thread per side of a connection.
///
/// ```swift
/// let started = Spin.now()
/// while !arrived() {
///   if Spin.elapsed(since: started) >= Spin.window { break }  // block from here on
///   Spin.pause()
/// }
/// ```
enum Spin {
  /// How long a reader keeps polling after its last frame (and a synchronous caller after its
  /// request) before it blocks, in nanoseconds.
  ///
  /// It must cover one round trip's own work, or both sides fall asleep just before the frame
  /// they wait for arrives: the caller encoding its request, the child decoding it, running
  /// the action and answering, and the caller decoding that (about 25 µs of CPU on the 2-CPU VM
  /// of `BENCHMARKS.md`, plus the hand-overs). Measured there with `apiary-bench --only
  /// process` (round trip, median, benchmark at real-time priority): no spinning 214–261 µs;
  /// 20 µs 195–264 µs (the window ends before the answer); 50 µs 53–58 µs; 100 µs 49 µs for
  /// twice the idle CPU per frame. 50 µs is the smallest window that covers the round trip.
  static let window: UInt64 = 50_000

  /// How long a synchronous caller spins when its peer has been quiet for a ``window``, and so
  /// has stopped spinning and sleeps: long enough to see it wake (90–130 µs between the idle
  /// virtual CPUs of the VM in `BENCHMARKS.md`) and answer. With only ``window``, the caller
  /// would sleep too before the answer came, and each side would then wake to find the other
  /// asleep, call after call. It costs one longer spin per quiet spell, not per call.
  static let wakeWindow: UInt64 = 300_000

  /// The monotonic clock, in nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Nanoseconds since `start` (a value of ``now()``).
  static func elapsed(since start: UInt64) -> UInt64 {
    now() &- start
  }

  /// Lets another thread run on this CPU, if one is waiting, before the next poll: on a
  /// machine with few CPUs the peer a spinner waits for may need this very CPU.
  static func pause() {
    sched_yield()
  }
}
