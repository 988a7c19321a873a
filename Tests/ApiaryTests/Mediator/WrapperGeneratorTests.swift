import Foundation
import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator
@testable import ApiaryTooling

@Suite struct WrapperGeneratorTests {
  static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Generated/SampleClients.swift")

  @Test func generatedSourceMatchesTheCommittedSample() throws {
    let source = WrapperGenerator.swiftSource(for: GeneratorSample.targets)
    if ProcessInfo.processInfo.environment["APIARY_REGENERATE"] != nil {
      try source.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: Self.generatedFile, encoding: .utf8)
    #expect(source == committed)
  }
}

extension WrapperGeneratorTests {
  static let awkward = [
    TargetManifest(name: "empty", type: "X.Y"),
    TargetManifest(
      name: "a-very-long-target-name-that-goes-on-and-on-and-on", type: "X.Z",
      actions: [
        ActionManifest(
          name: "class",
          parameters: (1...6).map {
            ParameterManifest(name: "parameter_number_\($0)_with_a_long_name", kind: .object)
          },
          summary:
            "A summary\nwith a line break and enough words to need wrapping when it is written"
            + " as a documentation comment above the generated method.")
      ]),
  ]

  @Test func targetsNamedLikeMediatorMembersGetASuffix() {
    #expect(WrapperGenerator.propertyName("open") == "openTarget")
    #expect(WrapperGenerator.propertyName("targets") == "targetsTarget")
    #expect(WrapperGenerator.propertyName("notes") == "notes")
    let source = WrapperGenerator.swiftSource(for: [TargetManifest(name: "perform", type: "X.Y")])
    #expect(source.contains("  public var performTarget: PerformClient {"))
  }

  @Test func awkwardManifestsGiveShortLinesAndEscapedNames() {
    let source = WrapperGenerator.swiftSource(for: Self.awkward, accessLevel: .internal)
    if let path = ProcessInfo.processInfo.environment["APIARY_AWKWARD_OUTPUT"] {
      try? source.write(toFile: path, atomically: true, encoding: .utf8)
    }
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= 100 })
    #expect(source.contains("struct EmptyClient: Sendable {"))
    #expect(source.contains("  func `class`(\n"))
    #expect(source.contains("    parameterNumber1WithALongName: [String: any Sendable]? = nil,\n"))
    // The last parameter without a comma: Swift before 6.1 rejects a trailing one.
    let last = "    parameterNumber6WithALongName: [String: any Sendable]? = nil\n  )"
    #expect(source.contains(last))
    #expect(source.contains("params[\"parameter_number_1_with_a_long_name\"] ="))
    #expect(source.contains("  var aVeryLongTargetNameThatGoesOnAndOnAndOn: AVeryLongTargetName"))
    #expect(!source.contains("public"))
    #expect(
      source == WrapperGenerator.swiftSource(for: Self.awkward.reversed(), accessLevel: .internal))
  }
}

@Suite struct GeneratedClientTests {
  private func mediator() throws -> Mediator {
    let mediator = Mediator(scheme: "app", catalog: TypeCatalog())
    try mediator.addTargets(
      GeneratorSample.targets, owner: "sample", context: Fixtures.context(mediator))
    return mediator
  }

  @Test func typedCallsPassParametersAndDefaults() async throws {
    let mediator = try mediator()
    let note = try await mediator.notes.create(title: "Hi")
    #expect(note["title"] as? String == "Hi")
    #expect(note["pinned"] as? Bool == false)
    #expect(note["tags"] as? Int == 1)  // the declared default ["inbox"] was filled in
    #expect(note["body"] as? String == "")
    #expect(note["folder"] as? String == "Quotes \"and\" more")
    let full = try await mediator.notes.create(
      title: "T", pinned: true, tags: ["a", "b"], body: "text", folder: "f")
    #expect(full["pinned"] as? Bool == true)
    #expect(full["tags"] as? Int == 2)
    #expect(full["body"] as? String == "text")
  }

  @Test func typedResultsAndKeywordNamedParameters() async throws {
    let mediator = try mediator()
    #expect(try await mediator.notes.count() == 3)
    #expect(try await mediator.notes.titles() as? [String] == ["a", "b"])
    #expect(try await mediator.notes.delete(id: 1) == nil)
    #expect(try await mediator.notes.delete(id: 0) as? String == "nothing deleted")
    let hits = try await mediator.searchIndex.query(text: "x", default: "d")
    #expect(hits["limit"] as? Int == 20)
    #expect(hits["minScore"] as? Double == 0.5)
    #expect(hits["hasFilter"] as? Bool == false)
    #expect(hits["default"] as? String == "d")
    #expect(SearchIndexClient.target == "search-index")
  }

  @Test func typedCallsReportMissingTargets() async throws {
    let empty = Mediator(scheme: "app", catalog: TypeCatalog())
    let error = await asyncMediatorError { try await empty.notes.count() }
    #expect(error == .targetNotFound(target: "notes", action: "count"))
  }
}

extension WrapperGeneratorTests {
  /// Names that camel-case to one Swift identifier would make clients that do not compile.
  @Test func namesThatBecomeOneSwiftIdentifierAreReported() {
    func action(_ name: String, _ parameters: [String] = []) -> ActionManifest {
      ActionManifest(
        name: name, parameters: parameters.map { ParameterManifest(name: $0, kind: .int) })
    }
    let targets = [
      TargetManifest(
        name: "note-store", type: "X.A",
        actions: [
          action("get-note"), action("get_note"), action("mediator"),
          action("sum", ["max-count", "maxCount"]),
        ],
        source: SourceLocation(file: "m.json", keyPath: "modules[0].targets[0]")),
      TargetManifest(
        name: "note_store", type: "X.B",
        source: SourceLocation(file: "m.json", keyPath: "modules[0].targets[1]")),
      TargetManifest(name: "open", type: "X.C"),
      TargetManifest(name: "open-target", type: "X.D"),
      TargetManifest(name: "fine", type: "X.E", actions: [action("get-note")]),
    ]
    #expect(
      WrapperGenerator.nameCollisions(in: targets).map(\.description) == [
        "m.json modules[0].targets[0].actions[1]: action names 'get-note' and 'get_note' both "
          + "become the Swift name getNote in generated clients; rename one",
        "m.json modules[0].targets[0].actions[2]: action name 'mediator' becomes the Swift name "
          + "mediator, which generated clients use for their Mediator; rename it",
        "m.json modules[0].targets[0].actions[3].parameters[1]: parameter names 'max-count' and "
          + "'maxCount' both become the Swift name maxCount in generated clients; rename one",
        "m.json modules[0].targets[1]: target names 'note-store' and 'note_store' both become the "
          + "Swift name NoteStoreClient in generated clients; rename one",
        "target 'open-target': target names 'open' and 'open-target' both become the Swift name "
          + "Mediator.openTarget in generated clients; rename one",
      ])
    #expect(WrapperGenerator.nameCollisions(in: GeneratorSample.targets).isEmpty)
  }
}
