import Testing

/// Two manifests that give one plugin library different versions.
@Suite struct PluginVersionConflictTests {
  /// The refusal names both manifests' versions and the one the library's descriptor declares
  /// (it named the manifests' alone, so which one was wrong was left to guess).
  @Test func aVersionConflictSaysWhatTheDescriptorDeclares() throws {
    let library = PluginGateTests.library("SearchPlugin").path
    let app = try PluginGateTests.application(
      library: library,
      extra: """
        ,
        {"name": "other", "type": "SearchPlugin.SearchModule",
         "library": "\(library)", "version": "2.0.0"}
        """)
    let result = try HostProcess.run(["validate", app.path])
    #expect(result.status == 1)
    let line = result.stdout.split(separator: "\n").first { $0.contains("expects 2.0.0") }
    let conflict = try #require(line, "\(result.stdout)")
    #expect(conflict.contains("modules[1].library expects 2.0.0, "), "\(conflict)")
    #expect(
      conflict.hasSuffix(
        "modules[0].library expects 1.0.0; the library's descriptor declares 1.0.0"),
      "\(conflict)")
  }
}
