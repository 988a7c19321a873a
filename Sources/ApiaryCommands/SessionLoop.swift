import Apiary

/// Serves `apiary run`'s input lines with a ``Session``, so that a call that takes long holds
/// back only what has to come after it:
///
/// - a call (a URL, `:post`, `:resolve`) starts at once, beside the calls in flight, at most
///   ``concurrentCalls`` at a time, and prints its reply when it finishes;
/// - `:modules`, `:help` and lines that are no command are answered at once;
/// - a change (`:load`, `:remove`, `:restart`) waits for the calls in flight, saying so, and
///   the lines after it wait for it: changes see every line before them done;
/// - `:wait` waits for the calls in flight;
/// - at the end of input the calls in flight are waited for together, saying so: the longest
///   wait is the longest time limit left, not their sum.
///
/// ```swift
/// await SessionLoop(session: Session(kernel: kernel)).serve(HostInput())
/// ```
struct SessionLoop {
  /// Calls in flight at most; a call read then waits for one to finish, and so does the
  /// reading of the lines after it (the input is not read ahead without bound).
  static let concurrentCalls = 64

  let session: Session

  /// Serves `lines` until they end or the task is cancelled; at the end of input, returns once
  /// the calls in flight have finished.
  func serve(_ lines: HostInput) async {
    let session = session
    let inFlight = CallsInFlight()
    await withTaskGroup(of: Void.self) { group in
      // Calls added and not yet taken back with `next()`, finished or not.
      var added = 0
      for await line in lines {
        let text: String
        switch line {
        case .success(let line): text = line
        case .failure(let tooLong):
          Output.reply(lines: ["error: \(tooLong)"])
          continue
        }
        switch Session.kind(of: text) {
        case .call:
          if added == Self.concurrentCalls {
            _ = await group.next()
            added -= 1
          }
          let id = inFlight.begin(text)
          group.addTask {
            Output.reply(lines: await session.handle(text))
            inFlight.end(id)
          }
          added += 1
        case .look:
          Output.reply(lines: await session.handle(text))
        case .change:
          if let calls = inFlight.summary(in: session.kernel.mediator) {
            StandardError.print("waiting for \(calls) before '\(text.trimmingWhitespace())'")
          }
          await group.waitForAll()
          added = 0
          Output.reply(lines: await session.handle(text))
        case .wait:
          await group.waitForAll()
          added = 0
        }
      }
      guard !Task.isCancelled, let calls = inFlight.summary(in: session.kernel.mediator) else {
        return
      }
      StandardError.print(
        "end of input: waiting for \(calls); Ctrl-C (or SIGTERM) stops waiting and shuts down")
      await group.waitForAll()
    }
  }
}
