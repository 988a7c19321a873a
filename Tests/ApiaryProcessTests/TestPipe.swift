import Testing

@testable import ApiaryProcess

/// A pipe for a test, `[read, write]`, both ends close-on-exec. Tests run in parallel: a child
/// that another test spawns meanwhile would otherwise inherit the write end and hold it open,
/// so the reader would not see the end of input when the test closes its end.
///
/// ```swift
/// let fds = try testPipe()
/// ```
func testPipe() throws -> [Int32] {
  let ends = try #require(GNUFunctions.closeOnExecPipe())
  return [ends.read, ends.write]
}
