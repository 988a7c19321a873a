import Testing

@testable import Apiary
@testable import ApiaryMediator

/// An action table finds each action by name; a name written twice keeps the last action.
@Suite("Mediator: action tables")
struct ActionTableTests {
  final class Subject: Sendable {}

  @Test func aNameWrittenTwiceKeepsTheLastAction() throws {
    let table: ActionTable<Subject> = [
      "echo": .sync { _, _ in "first" },
      "add": .async { _, _ in 3 },
      "echo": .sync { _, _ in "last" },
    ]
    #expect(table.names == ["add", "echo"])
    #expect(table["missing"] == nil)
    guard case .sync(let echo)? = table["echo"]?.body else {
      Issue.record("echo is not the synchronous action written last")
      return
    }
    let params = Parameters([:], target: "t", action: "echo")
    #expect(try echo(Subject(), params) as? String == "last")
    guard case .async? = table["add"]?.body else {
      Issue.record("add is not the asynchronous action")
      return
    }
  }

  @Test func anEmptyTableHasNoActions() {
    let table: ActionTable<Subject> = [:]
    #expect(table.names.isEmpty)
    #expect(table["echo"] == nil)
  }
}
