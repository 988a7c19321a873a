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

  init() {}

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
