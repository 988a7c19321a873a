#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a connection's reader thread sleeps until input arrives: a one-shot `epoll` watch of
/// the input that another thread can switch off and on without waking the sleeper.
///
/// While a synchronous caller reads the connection itself (see ``ReadSide``), the reader
/// thread must not be woken by the frames the caller reads: on a virtual machine every such
/// wake-up is an interrupt between CPUs and puts a third thread on two CPUs, which more than
/// triples a round trip. A thread blocked in `poll` on the input would be woken by every
/// frame; an `epoll` watch registered with `EPOLLONESHOT` wakes nobody while it is disarmed,
/// and re-arming it wakes the sleeper at once if input is waiting, so nothing is missed.
///
/// Where `epoll` is missing (it is looked up with `dlsym`, as Swift's `Glibc` module does not
/// export it), the watch is a plain `poll`: correct, only woken more often.
///
/// ```swift
/// let watch = InputWatch(descriptor: input)
/// watch.disarm()      // a caller reads now
/// watch.arm()         // it is done; wakes the sleeper if input is waiting
/// watch.wait()        // the reader thread: until input arrives while armed
/// ```
final class InputWatch: Sendable {
  private let descriptor: Int32
  /// The epoll instance, or -1 when `epoll` is unavailable or refuses the descriptor.
  private let poller: Int32

  init(descriptor: Int32) {
    self.descriptor = descriptor
    guard let functions = EpollFunctions.shared else {
      poller = -1
      return
    }
    let created = functions.create(EpollFunctions.closeOnExec)
    var event = EpollFunctions.Event(events: EpollFunctions.readable | EpollFunctions.oneShot)
    let added =
      created >= 0
      && withUnsafeMutableBytes(of: &event) {
        functions.control(created, EpollFunctions.add, descriptor, $0.baseAddress)
      } == 0
    // `epoll` refuses regular files (a child's input redirected from one): those are polled.
    if created >= 0, !added { _ = close(created) }
    poller = added ? created : -1
  }

  deinit {
    if poller >= 0 { _ = close(poller) }
  }

  /// Waits until input arrives (or ends) while the watch is armed; the watch disarms itself as
  /// it wakes the sleeper. May also return early (a signal); the caller looks and waits again.
  func wait() {
    guard poller >= 0, let functions = EpollFunctions.shared else {
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&request, 1, -1)
      return
    }
    var event = EpollFunctions.Event()
    _ = withUnsafeMutableBytes(of: &event) { functions.wait(poller, $0.baseAddress, 1, -1) }
  }

  /// Stops waking the sleeper: a synchronous caller reads the input now.
  func disarm() {
    _ = control(events: 0)
  }

  /// Wakes the sleeper when input arrives, or at once if some is waiting.
  func arm() {
    _ = control(events: EpollFunctions.readable | EpollFunctions.oneShot)
  }

  private func control(events: UInt32) -> Int32 {
    guard poller >= 0, let functions = EpollFunctions.shared else { return 0 }
    var event = EpollFunctions.Event(events: events)
    return withUnsafeMutableBytes(of: &event) {
      functions.control(poller, EpollFunctions.modify, descriptor, $0.baseAddress)
    }
  }
}

/// `epoll_create1`, `epoll_ctl` and `epoll_wait`, looked up once with `dlsym` (Swift's `Glibc`
/// module does not export `<sys/epoll.h>`); nil where they do not exist.
private struct EpollFunctions: Sendable {
  typealias Create = @convention(c) (Int32) -> Int32
  typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
  typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

  /// `struct epoll_event`: 32-bit `events`, then 64-bit user data, which this watch does not
  /// use (zero). The header packs it to 12 bytes on x86-64 and pads it to 16 elsewhere; this
  /// is 16 bytes with `events` first, which fits both (one event at a time).
  struct Event {
    var events: UInt32 = 0
    var padding: UInt32 = 0
    var data: UInt64 = 0
  }

  static let readable: UInt32 = 0x001  // EPOLLIN
  static let oneShot: UInt32 = 1 << 30  // EPOLLONESHOT
  static let add: Int32 = 1  // EPOLL_CTL_ADD
  static let modify: Int32 = 3  // EPOLL_CTL_MOD
  static let closeOnExec: Int32 = 0o2_000_000  // EPOLL_CLOEXEC, O_CLOEXEC

  let create: Create
  let control: Control
  let wait: Wait

  static let shared: EpollFunctions? = {
    guard let create = dlsym(nil, "epoll_create1"), let control = dlsym(nil, "epoll_ctl"),
      let wait = dlsym(nil, "epoll_wait")
    else { return nil }
    return EpollFunctions(
      create: unsafeBitCast(create, to: Create.self),
      control: unsafeBitCast(control, to: Control.self),
      wait: unsafeBitCast(wait, to: Wait.self))
  }()
}
