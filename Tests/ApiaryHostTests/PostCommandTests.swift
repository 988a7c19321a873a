import Testing

/// `:post EVENT key=value ...` holds its parameters to a URL query's rules.
@Suite struct PostCommandTests {
  /// A word without `=`, one with an empty name and a repeated name are refused, naming the
  /// word; they were posted as `a=""`, `""="x"` and the last `a`.
  @Test func postRefusesParametersAURLWouldRefuse() throws {
    let app = try HostProcess.manifests([
      "app.json": #"{"schemaVersion": 1, "name": "Empty", "scheme": "empty", "modules": []}"#
    ])
    let input = """
      :post note.saved a
      :post note.saved =x
      :post note.saved a=1 a=2
      :post note.saved a=1 b= c==

      """
    let result = try HostProcess.run(["run", "--quiet", app.path], input: input)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 4, "\(lines)")
    #expect(
      Array(lines[0..<3]) == [
        "error: :post: parameter 'a' has no '=' and value; write a=VALUE (a= for an empty one)",
        "error: :post: empty parameter name in '=x'; write key=value",
        "error: :post: parameter 'a' given more than once; give each key once",
      ], "\(lines)")
    #expect(lines[3].hasPrefix("event 'note.saved': handled by []"), "\(lines)")
  }
}
