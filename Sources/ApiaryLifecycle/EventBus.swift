import ApiarySupport
import Synchronization

/// Custom events by name. Handlers run one after another in boot order (dependencies, level,
/// priority, manifest order), then subscription order; a handler that throws does not stop the
/// others, and ``post(_:payload:)`` returns who handled the event and who failed.
///
/// A module's handler is bounded by its manifest's `timeout` (default 10 s): one that runs
/// longer is abandoned, reported as a failure of its module, and the post goes on to the next
/// handler. Abandoned means the handler is not waited for: an `async` one is cancelled, a
/// synchronous one that blocks its thread keeps running on that thread (Swift cannot stop a
/// thread) and its result is dropped; when it ends after all, the bus logs how (`log`). The
/// limit counts from the handler's start, and only time its task could run: while no thread of
/// Swift's pool is free, a handler there is not timed (even one that holds a thread itself),
/// and the post waits, as its poster would. The host's own handlers have no limit.
///
/// ```swift
/// // SearchModule.setUp
/// context.events.subscribe("note.saved") { event in
///   guard let id = event.payload["id"] as? String else { return .ignored }
///   index.add(id)
///   return .handled
/// }
/// // elsewhere
/// let report = await context.events.post("note.saved", payload: ["id": "42"])
/// ```
public final class EventBus: Sendable {
  /// A handler: reports whether it handled the event.
  public typealias Handler = @Sendable (Event) async throws -> EventOutcome

  struct Subscription: Sendable {
    let id: Int
    let owner: String
    var rank: Int
    let callee: Callee

    /// Whether it stands in for a dormant module's handlers until it subscribes itself.
    var isPlaceholder: Bool {
      if case .placeholder = callee { true } else { false }
    }

    /// Its time limit in seconds; infinite for the host's handlers.
    var seconds: Double {
      switch callee {
      case .handler(_, let seconds): seconds
      case .placeholder(let placeholder): placeholder.seconds
      }
    }

    /// Calls its handler, or wakes its placeholder's module and delivers to it through `bus`.
    func call(_ event: Event, on bus: EventBus) async throws -> EventOutcome {
      switch callee {
      case .handler(let handler, _): return try await handler(event)
      case .placeholder(let placeholder):
        try await placeholder.wake(for: event)
        return try await bus.deliver(event, to: owner)
      }
    }
  }

  /// What a subscription calls: a handler with its time limit, or a dormant module's
  /// placeholder.
  enum Callee: Sendable {
    case handler(Handler, seconds: Double)
    case placeholder(any EventPlaceholder)
  }

  struct State {
    var nextID = 0
    var byEvent: [String: [Subscription]] = [:]
    /// Dispatch position of each owner; owners without one (the host) come last.
    var ranks: [String: Int] = [:]
    /// Where each event's list ends its dispatch order: subscriptions from there on are in
    /// subscription order, not yet in rank order. A subscription that ranks before the last
    /// one is appended and placed later, in one merge, instead of being inserted in the middle
    /// (eager modules subscribe in `setUp`, after thousands of dormant modules' placeholders).
    var unplaced: [String: Int] = [:]
    /// The shortest time limit of a handler ever subscribed: how often a post is checked.
    var shortest = Double.infinity

    /// Puts the subscriptions of `event` in dispatch order: by rank, each after every
    /// subscription of equal or earlier rank that came before it, as if each had been
    /// inserted in its place when it was made.
    mutating func place(_ event: String) {
      guard let start = unplaced.removeValue(forKey: event), let list = byEvent[event] else {
        return
      }
      let tail = list[start...].enumerated().sorted {
        ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
      }.map(\.element)
      var placed: [Subscription] = []
      placed.reserveCapacity(list.count)
      var (old, new) = (0, 0)
      while old < start || new < tail.count {
        if new == tail.count || (old < start && list[old].rank <= tail[new].rank) {
          placed.append(list[old])
          old += 1
        } else {
          placed.append(tail[new])
          new += 1
        }
      }
      byEvent[event] = placed
    }

    /// ``place(_:)`` for every event.
    mutating func placeAll() {
      for event in Array(unplaced.keys) { place(event) }
    }

    /// Appends `subscription` to `list`, the list of `event`: in its place already when it
    /// ranks with or after the last one (modules mostly subscribe in boot order), otherwise
    /// placed with the others before the next dispatch (``place(_:)``).
    mutating func append(
      _ subscription: Subscription, to list: inout [Subscription], of event: String
    ) {
      if let last = list.last, last.rank > subscription.rank, unplaced[event] == nil {
        unplaced[event] = list.count
      }
      list.append(subscription)
    }
  }

  final class Storage: Sendable {
    let state = Locked(State())
    let profiler: Profiler?
    /// Where a post's handlers after an abandoned one run (the kernel's hook executor, off
    /// Swift's pool); nil: on the pool.
    let executor: (any TaskExecutor)?
    /// Where the late end of an abandoned handler is told.
    let log: @Sendable (String) -> Void

    init(
      profiler: Profiler?, executor: (any TaskExecutor)?, log: @escaping @Sendable (String) -> Void
    ) {
      self.profiler = profiler
      self.executor = executor
      self.log = log
    }
  }

  let storage: Storage
  private let owner: String?
  /// The time limit of the handlers subscribed through this view.
  private let seconds: Double
  /// The events for which `owner` may have placeholders (it was woken from dormant): its own
  /// subscription to one of them replaces the placeholder.
  private let placeholderEvents: [String]

  /// Creates a bus; when a profiler is given, every dispatch is timed. After a handler was
  /// abandoned, the post's remaining handlers run on `executor` when one is given, so a handler
  /// that blocks a thread of Swift's pool does not leave the rest with one thread fewer. `log`
  /// is told when an abandoned handler ends after all (its result is dropped).
  package convenience init(
    profiler: Profiler? = nil, executor: (any TaskExecutor)? = nil,
    log: @escaping @Sendable (String) -> Void = StandardError.print
  ) {
    self.init(
      storage: Storage(profiler: profiler, executor: executor, log: log), owner: nil)
  }

  private init(
    storage: Storage, owner: String?, seconds: Double = .infinity, placeholderEvents: [String] = []
  ) {
    self.storage = storage
    self.owner = owner
    self.seconds = seconds
    self.placeholderEvents = placeholderEvents
  }

  /// A view whose subscriptions are owned by `owner`, dispatched at the owner's rank; `rank`,
  /// when given, sets that rank (otherwise ``rank(_:)`` does). Its handlers are bounded by
  /// `seconds` (the module's manifest `timeout`). `replacing` names the events whose
  /// placeholders (``subscribePlaceholders(_:)``) the owner's first subscription through this
  /// view replaces: a woken module's activation events.
  package func owned(
    by owner: String, rank: Int? = nil, seconds: Double = .infinity,
    replacing placeholderEvents: [String] = []
  ) -> EventBus {
    if let rank { storage.state.withLock { $0.ranks[owner] = rank } }
    return EventBus(
      storage: storage, owner: owner, seconds: seconds, placeholderEvents: placeholderEvents)
  }

  /// Sets the dispatch order of owners (the kernel's boot order, with run-time added modules in
  /// their place) and reorders existing subscriptions to match, keeping subscription order
  /// within an owner.
  package func rank(_ owners: [String]) {
    // Built in place, without a list of pairs in between; an owner listed twice keeps its
    // first rank.
    var ranks: [String: Int] = [:]
    ranks.reserveCapacity(owners.count)
    for (rank, owner) in owners.enumerated() {
      if let first = ranks.updateValue(rank, forKey: owner) { ranks[owner] = first }
    }
    rank(owners: ranks)
  }

  /// ``rank(_:)`` with each owner's rank given (a boot plan's table of positions), so no name
  /// is hashed again.
  package func rank(owners ranks: [String: Int]) {
    storage.state.withLock { state in
      state.placeAll()
      state.ranks = ranks
      for key in Array(state.byEvent.keys) {
        guard var list = state.byEvent[key] else { continue }
        for index in list.indices {
          list[index].rank = state.ranks[list[index].owner] ?? Int.max
        }
        state.byEvent[key] = list.enumerated().sorted {
          ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
        }.map(\.element)
      }
    }
  }

  /// Calls `handler` for every event named `name` until the subscription is cancelled or its
  /// owner is unloaded.
  @discardableResult
  public func subscribe(_ name: String, handler: @escaping Handler) -> EventSubscription {
    let owner = self.owner ?? "host"
    let id = storage.state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      if placeholderEvents.contains(name) {
        state.place(name)
        state.byEvent[name]?.removeAll { $0.owner == owner && $0.isPlaceholder }
      }
      let rank = self.owner.flatMap { state.ranks[$0] } ?? Int.max
      state.shortest = min(state.shortest, seconds)
      // Taken out and put back, so the list is changed in place rather than copied.
      var list = state.byEvent.removeValue(forKey: name) ?? []
      state.append(
        Subscription(
          id: id, owner: owner, rank: rank, callee: .handler(handler, seconds: seconds)),
        to: &list, of: name)
      state.byEvent[name] = list
      return id
    }
    return EventSubscription(bus: storage, event: name, id: id)
  }

  /// Subscribes placeholders of dormant modules, in one step, each to its event at `rank` (its
  /// owner's place in the order ``rank(_:)`` set, which the caller knows), in the order given;
  /// a run of entries for one event finds its list once. The module's own first subscription
  /// to the event, through the view its context holds (``owned(by:rank:replacing:)``),
  /// replaces its placeholder in the same step, so no dispatch sees both or neither.
  package func subscribePlaceholders(
    _ placeholders: [(event: String, owner: String, rank: Int, placeholder: any EventPlaceholder)]
  ) {
    storage.state.withLock { state in
      var start = placeholders.startIndex
      while start < placeholders.endIndex {
        let name = placeholders[start].event
        var end = start + 1
        while end < placeholders.endIndex, placeholders[end].event == name { end += 1 }
        var list = state.byEvent.removeValue(forKey: name) ?? []
        // Grown once for the run, still geometrically when runs of one event alternate.
        if list.capacity < list.count + (end - start) {
          list.reserveCapacity(max(list.count + (end - start), 2 * list.capacity))
        }
        for (_, owner, rank, placeholder) in placeholders[start..<end] {
          let subscription = Subscription(
            id: state.nextID, owner: owner, rank: rank, callee: .placeholder(placeholder))
          state.nextID += 1
          state.append(subscription, to: &list, of: name)
        }
        state.byEvent[name] = list
        start = end
      }
    }
  }

  /// Dispatches an event to its handlers in order and reports the outcome. A handler that
  /// outlives its module's `timeout` is abandoned and reported as a failure of its module.
  @discardableResult
  public func post(_ name: String, payload: [String: any Sendable] = [:]) async -> DispatchReport {
    let event = Event(name: name, payload: payload, sender: owner)
    let (handlers, shortest) = storage.state.withLock { state in
      state.place(name)
      return (state.byEvent[name] ?? [], state.shortest)
    }
    let clock = ContinuousClock()
    let began = clock.now
    var report = DispatchReport(event: name)
    if let limited = handlers.first(where: { $0.seconds.isFinite }) {
      report = await EventLane.run(
        handlers, event, on: self, shortest: min(shortest, limited.seconds))
    } else {
      for subscription in handlers {
        do {
          report.record(try await subscription.call(event, on: self), of: subscription.owner)
        } catch {
          report.failures.append((subscription.owner, error))
        }
      }
    }
    storage.profiler?.record(subject: name, phase: .event, duration: clock.now - began)
    return report
  }

  /// Runs `owner`'s handlers of `event`, in subscription order, and reports whether one
  /// handled it; the first error a handler throws is rethrown after the others ran. The kernel
  /// delivers the event that woke a lazy module to the handlers its `setUp` subscribed.
  package func deliver(_ event: Event, to owner: String) async throws -> EventOutcome {
    let handlers = storage.state.withLock { state in
      state.place(event.name)
      return (state.byEvent[event.name] ?? []).filter { $0.owner == owner && !$0.isPlaceholder }
    }
    var outcome = EventOutcome.ignored
    var firstError: (any Error)?
    for subscription in handlers {
      do {
        if try await subscription.call(event, on: self) == .handled { outcome = .handled }
      } catch {
        firstError = firstError ?? error
      }
    }
    if let firstError { throw firstError }
    return outcome
  }

  /// Names of events with at least one handler, each with its handlers' owners in order.
  package var subscriptions: [(event: String, owners: [String])] {
    storage.state.withLock { state -> [(event: String, owners: [String])] in
      state.placeAll()
      return state.byEvent.filter { !$0.value.isEmpty }.map { ($0.key, $0.value.map(\.owner)) }
    }.sorted { $0.event < $1.event }
  }

  /// Removes every subscription owned by one of `owners`, in one pass.
  package func removeAll(ownedBy owners: Set<String>) {
    storage.state.withLock { state in
      state.placeAll()
      for key in Array(state.byEvent.keys) {
        state.byEvent[key]?.removeAll { owners.contains($0.owner) }
        if state.byEvent[key]?.isEmpty == true { state.byEvent[key] = nil }
      }
    }
  }

  static func cancel(_ storage: Storage, event: String, id: Int) {
    storage.state.withLock { state in
      state.place(event)
      state.byEvent[event]?.removeAll { $0.id == id }
    }
  }
}

/// Returned by ``EventBus/subscribe(_:handler:)``; `cancel()` removes the handler.
public struct EventSubscription: Sendable {
  fileprivate let bus: EventBus.Storage
  package let event: String
  fileprivate let id: Int

  public func cancel() { EventBus.cancel(bus, event: event, id: id) }
}
