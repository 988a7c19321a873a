import ApiarySupport
import Dispatch

/// The chunks of one directory's files shared by the loading thread, which claims them from
/// the front, and a helper thread, which claims them from the back (see ``FileSharing``): each
/// chunk is claimed once, the two meet wherever their speeds take them, and the loading thread
/// decodes its chunks straight into its set. The helper's chunks wait here, each decoded into
/// a set of its own, until the loading thread has claimed its last chunk and takes them, in
/// file order, waiting for the one the helper is still decoding, if any. A helper that starts
/// after the chunks ran out claims none.
///
/// ```swift
/// let board = ChunkBoard(chunks: 3)
/// board.claimFront()       // 0, on the loading thread
/// board.claimBack()        // 2, on the helper
/// board.finished(part)     // the helper's set for chunk 2
/// board.claimFront()       // 1
/// board.claimFront()       // nil: every chunk is claimed
/// board.helperParts()      // [part]
/// ```
final class ChunkBoard: Sendable {
  /// A step one thread takes, as ``FileSharing/observe`` is told of it.
  enum Step: Sendable, Equatable {
    /// The thread claimed this chunk and is about to decode it.
    case claimed(Int, byHelper: Bool)
    /// The loading thread claimed its last chunk and waits for the helper's chunk in flight.
    case waitingForHelper
  }

  private struct State {
    /// The loading thread's next chunk, and the helper's last claimed (every chunk from
    /// there on is the helper's): every chunk is claimed once they meet.
    var front = 0
    var back: Int
    var helperBusy = false
    var loaderWaits = false
    /// The helper's decoded chunks, last chunk first.
    var parts: [ManifestSet] = []
  }

  private let state: Locked<State>
  private let helperDone = DispatchSemaphore(value: 0)
  private let observe: (@Sendable (Step) -> Void)?

  init(chunks: Int, observe: (@Sendable (Step) -> Void)? = nil) {
    state = Locked(State(back: chunks))
    self.observe = observe
  }

  /// The loading thread's next chunk; nil once every chunk is claimed.
  func claimFront() -> Int? {
    let chunk = state.withLock { state -> Int? in
      guard state.front < state.back else { return nil }
      defer { state.front += 1 }
      return state.front
    }
    if let chunk { observe?(.claimed(chunk, byHelper: false)) }
    return chunk
  }

  /// The helper's next chunk; nil once every chunk is claimed. The helper decodes it and
  /// hands it back with ``finished(_:)`` before it claims another.
  func claimBack() -> Int? {
    let chunk = state.withLock { state -> Int? in
      guard state.front < state.back else { return nil }
      state.back -= 1
      state.helperBusy = true
      return state.back
    }
    if let chunk { observe?(.claimed(chunk, byHelper: true)) }
    return chunk
  }

  /// The helper's set of the chunk it claimed last.
  func finished(_ part: ManifestSet) {
    let wake = state.withLock { state in
      state.parts.append(part)
      state.helperBusy = false
      defer { state.loaderWaits = false }
      return state.loaderWaits
    }
    if wake { helperDone.signal() }
  }

  /// The helper's sets in file order, once ``claimFront()`` has returned nil: after the chunk
  /// the helper is decoding, if any, is finished.
  func helperParts() -> [ManifestSet] {
    let waits = state.withLock { state in
      state.loaderWaits = state.helperBusy
      return state.helperBusy
    }
    if waits {
      observe?(.waitingForHelper)
      helperDone.wait()
    }
    return state.withLock { state in
      defer { state.parts = [] }
      return state.parts.reversed()
    }
  }
}
