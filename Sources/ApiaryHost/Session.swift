import Apiary
import ApiaryTooling

/// Turns one line of `apiary run`'s standard input into an action on the running kernel.
struct Session {
  let kernel: Kernel

  /// The lines to print for `line`; none for blank lines and comments.
  func handle(_ line: String) async -> [String] {
    let text = line.trimmingWhitespace()
    guard !text.isEmpty, !text.hasPrefix("#") else { return [] }
    guard text.hasPrefix(":") else { return [await call(text)] }
    let words = text.dropFirst().split(separator: " ").map(String.init)
    switch (words.first ?? "", words.count) {
    case ("help", _): return RunCommand.usage.lines
    case ("modules", 1):
      return await kernel.moduleStates.map { "\($0.name.padding(12)) \($0.state)" }
    case ("remove", 2):
      do {
        try await kernel.remove(words[1])
        return ["removed '\(words[1])'"]
      } catch {
        return ["error: \(error)"]
      }
    case ("post", 2...):
      var payload: [String: any Sendable] = [:]
      for pair in words.dropFirst(2) {
        let parts = pair.split(separator: "=", maxSplits: 1)
        payload[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
      }
      return [await kernel.events.post(words[1], payload: payload).description]
    default:
      return ["error: unknown command '\(text)'; type ':help'"]
    }
  }

  /// A remote call through the mediator's URL entry.
  private func call(_ url: String) async -> String {
    do {
      return try ResultRenderer.render(try await kernel.mediator.open(url))
    } catch {
      return "error: \(error)"
    }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[start...end])
  }
}
