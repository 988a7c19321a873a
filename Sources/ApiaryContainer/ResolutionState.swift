#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Per-thread bookkeeping of the resolve in progress: the bindings being built (for cycle
/// detection and cycle paths) and the instances of the current object graph (graph-scoped
/// instances, and singletons whose post-construction hooks are still running).
///
/// Factories are synchronous, so one resolve runs on one thread from start to end, and the
/// state is reached through a pthread key. The arrays keep their capacity, so a resolve does
/// not allocate once a thread has resolved something.
@usableFromInline
final class ResolutionState {
  // Only the owning thread reaches this object, so accesses cannot overlap.
  @exclusivity(unchecked) @usableFromInline var stack: [AnyBinding] = []
  @exclusivity(unchecked) @usableFromInline var instances: [ObjectIdentifier: Any] = [:]
  /// The current graph as an object, made only when a ``Lazy`` is created inside it; the graph's
  /// instances are saved into it when the top-level resolve ends.
  @exclusivity(unchecked) @usableFromInline var graph: ResolutionGraph?

  init() {}

  /// The graph of the resolve in progress on this thread, or nil outside a resolve.
  func currentGraph() -> ResolutionGraph? {
    guard !stack.isEmpty else { return nil }
    if let graph { return graph }
    let made = ResolutionGraph()
    graph = made
    return made
  }

  /// Ends a top-level resolve: saves graph instances a ``Lazy`` may still need, then forgets
  /// them.
  @usableFromInline
  func endGraph() {
    if let graph {
      graph.save(instances)
      self.graph = nil
    }
    if !instances.isEmpty { instances.removeAll(keepingCapacity: true) }
  }

  /// Runs `resolve` as a top-level resolve in `graph`, then restores this thread's own resolve
  /// in progress, if any.
  func resolve<T>(
    in graph: ResolutionGraph, _ resolve: () throws(ContainerError) -> T
  ) throws(ContainerError) -> T {
    let (savedStack, savedInstances, savedGraph) = (stack, instances, self.graph)
    stack = []
    instances = graph.instances()
    self.graph = graph
    defer {
      endGraph()
      (stack, instances, self.graph) = (savedStack, savedInstances, savedGraph)
    }
    return try resolve()
  }

  /// The calling thread's state, created on first use and released when the thread exits.
  @usableFromInline
  static var current: ResolutionState {
    if let pointer = pthread_getspecific(threadKey) {
      return Unmanaged<ResolutionState>.fromOpaque(pointer).takeUnretainedValue()
    }
    let state = ResolutionState()
    pthread_setspecific(threadKey, Unmanaged.passRetained(state).toOpaque())
    return state
  }

  /// The binding path from the first occurrence of `binding` on the stack back to it.
  @usableFromInline
  func cyclePath(to binding: AnyBinding) -> [ServiceKey] {
    let start = stack.firstIndex { $0 === binding } ?? stack.startIndex
    return (stack[start...] + [binding]).map(\.serviceKey)
  }
}

private let threadKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key, releaseState)
  return key
}()

#if canImport(Darwin)
  private func releaseState(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ResolutionState>.fromOpaque(pointer).release()
  }
#else
  private func releaseState(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ResolutionState>.fromOpaque(pointer).release()
  }
#endif
