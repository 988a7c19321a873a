import Testing

/// Types cross the plugin boundary as one type: the sample's plugins are separate shared
/// libraries (Plugins/Notebook) sharing the host's libApiary.so and one libNotebookKit.so.
@Suite struct TypeIdentityTests {
  /// `store` binds `NotebookKit.NoteStore` in its library; `notes` (another library) resolves
  /// it by protocol, and so does the host, which gets the same singleton instance every time.
  @Test func serviceBoundInOnePluginResolvesByProtocolInAnotherAndInTheHost() throws {
    let input = """
      notebook://notes/create?title=Shared
      notebook://notes/list
      :resolve NotebookKit.NoteStore
      :resolve NotebookKit.NoteStore
      :resolve NotebookKit.Logger

      """
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", HostProcess.manifests], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 5, "\(lines)")
    #expect(lines[0].contains("\"title\":\"Shared\""), "notes used the store's NoteStore: \(lines)")
    #expect(lines[1].contains("\"title\":\"Shared\""), "the same store instance kept it: \(lines)")
    #expect(lines[2].hasPrefix("NotebookKit.NoteStore → StorePlugin.FileNoteStore 0x"), "\(lines)")
    #expect(lines[2] == lines[3], "one singleton, resolved twice in the host: \(lines)")
    #expect(lines[4].hasPrefix("NotebookKit.Logger → LoggingPlugin.ConsoleLogger 0x"), "\(lines)")
  }

  /// `notes` posts `note.saved` with a `NotebookKit.Note` payload; `search`, another library,
  /// handles it (its `as? Note` cast succeeds across the boundary) and indexes the note.
  @Test func eventPostedByOnePluginIsHandledByAnother() throws {
    let input = """
      notebook://search/query?q=boundary
      notebook://notes/create?title=Across%20the%20boundary
      notebook://search/query?q=boundary
      :post note.saved

      """
    let result = try HostProcess.run(
      ["run", "--quiet", "--manifests", HostProcess.manifests], input: HostProcess.oneByOne(input))
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 4, "\(lines)")
    #expect(lines[0] == "[]", "\(lines)")
    #expect(lines[2].contains("Across the boundary"), "search indexed the note: \(lines)")
    #expect(lines[3].contains("[search]"), "search subscribes to note.saved: \(lines)")
  }
}
