import Dispatch

/// The time limits of awaited calls (the mediator's, and a process-placed target's on the
/// wire), served by one Dispatch timer for the whole process.
///
/// A timer of its own per call cost every awaited call a timer set up, and its cancellation a
/// wake-up of the timer queue's thread, about a third of a call to a process-placed target with
/// 64 in flight (BENCHMARKS.md, "Process"). Here a call's limit is an entry in a heap ordered by
/// deadline; the one timer is armed for the earliest, and only moved when a new deadline comes
/// before it. Cancelling removes the entry and schedules nothing. The timer fires on a serial
/// queue, which libdispatch serves with a thread of its own even when every worker of the global
/// queues is held by actions that block.
///
/// ```swift
/// let token = Deadlines.shared.schedule(after: 30) { print("too late") }
/// Deadlines.shared.cancel(token)  // finished in time: nothing fires
/// ```
package final class Deadlines: Sendable {
  package static let shared = Deadlines()

  private struct Entry {
    let deadline: UInt64
    let token: UInt64
  }

  private struct State {
    var nextToken: UInt64 = 0
    /// What fires for each deadline not yet cancelled or fired, by token.
    var pending: [UInt64: @Sendable () -> Void] = [:]
    /// A binary min-heap by deadline. Cancelled entries stay until they reach the top or the
    /// heap is rebuilt from `pending` (when they outnumber the live ones).
    var heap: [Entry] = []
    /// The deadline the timer is armed for, nil when it is not armed.
    var armed: UInt64?
  }

  private let state = Locked(State())
  /// libdispatch timers may be scheduled from any thread; this one is created and resumed in
  /// `init` and from then on only rescheduled, always while `state` is locked.
  nonisolated(unsafe) private let timer: any DispatchSourceTimer

  private init() {
    timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "apiary.action-deadlines"))
    timer.setEventHandler { [unowned self] in fire() }
    timer.resume()
  }

  /// Runs `fire` on the deadlines' queue `seconds` from now unless ``cancel(_:)`` comes first;
  /// returns the token that cancels it.
  package func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
    let now = DispatchTime.now().uptimeNanoseconds
    let nanoseconds = seconds * 1e9
    // A limit too far to represent never fires (the manifest allows any positive number).
    let deadline =
      nanoseconds < Double(UInt64.max - now) ? now + UInt64(nanoseconds) : UInt64.max
    return state.withLock { state in
      let token = state.nextToken
      state.nextToken += 1
      state.pending[token] = fire
      Self.push(Entry(deadline: deadline, token: token), into: &state.heap)
      if state.armed.map({ deadline < $0 }) ?? true {
        state.armed = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
      }
      return token
    }
  }

  /// How many deadlines wait to fire, and how many entries the heap holds (cancelled ones
  /// included until it is rebuilt).
  package var sizes: (pending: Int, heap: Int) {
    state.withLock { ($0.pending.count, $0.heap.count) }
  }

  /// Forgets the deadline of `token`; it will not fire. Cancelling twice, or after it fired, is
  /// harmless.
  package func cancel(_ token: UInt64) {
    state.withLock { state in
      guard state.pending.removeValue(forKey: token) != nil else { return }
      if state.heap.count > 64 && state.heap.count > 2 * state.pending.count {
        state.heap = state.heap.filter { state.pending[$0.token] != nil }
        state.heap.sort { $0.deadline < $1.deadline }  // a sorted array is a heap
      }
    }
  }

  /// The timer's handler: runs what is due (outside the lock) and arms the timer for the next.
  private func fire() {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = state.withLock { state -> [@Sendable () -> Void] in
      var due: [@Sendable () -> Void] = []
      while let top = state.heap.first,
        top.deadline <= now || state.pending[top.token] == nil
      {
        Self.popFirst(from: &state.heap)
        if let action = state.pending.removeValue(forKey: top.token) { due.append(action) }
      }
      state.armed = state.heap.first?.deadline
      if let next = state.armed { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
      return due
    }
    for action in due { action() }
  }

  private static func push(_ entry: Entry, into heap: inout [Entry]) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private static func popFirst(from heap: inout [Entry]) {
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
      if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
