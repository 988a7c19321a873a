@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

/// The manifest the committed `Generated/SampleClients.swift` was generated from, and targets
/// implementing it, so tests can call the generated clients.
enum GeneratorSample {
  static let targets: [TargetManifest] = [
    TargetManifest(
      name: "search-index", type: "ApiaryTests.SampleSearchTarget",
      actions: [
        ActionManifest(
          name: "query", isRemote: true,
          parameters: [
            ParameterManifest(name: "text", kind: .string, isRequired: true),
            ParameterManifest(name: "limit", kind: .int, defaultValue: 20),
            ParameterManifest(name: "min_score", kind: .double, defaultValue: 0.5),
            ParameterManifest(name: "filter", kind: .object),
            ParameterManifest(name: "default", kind: .any),
          ], returns: .object, summary: "Finds notes whose text matches.")
      ]),
    TargetManifest(
      name: "notes", type: "ApiaryTests.SampleNotesTarget",
      actions: [
        ActionManifest(
          name: "create", isRemote: true,
          parameters: [
            ParameterManifest(name: "title", kind: .string, isRequired: true),
            ParameterManifest(name: "pinned", kind: .bool, defaultValue: false),
            ParameterManifest(name: "tags", kind: .array, defaultValue: ["inbox"]),
            ParameterManifest(name: "body", kind: .string),
            ParameterManifest(name: "folder", kind: .string, defaultValue: "Quotes \"and\" more"),
          ], returns: .object, summary: "Creates a note and returns it."),
        ActionManifest(name: "count", returns: .int),
        ActionManifest(name: "titles", returns: .array),
        ActionManifest(
          name: "delete", parameters: [ParameterManifest(name: "id", kind: .int, isRequired: true)]
        ),
      ]),
  ]
}

final class SampleNotesTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<SampleNotesTarget> = [
    "create": .sync { _, params in
      [
        "title": try params.string("title"), "pinned": try params.bool("pinned"),
        "tags": try params.value("tags", as: [any Sendable].self).count,
        "body": params["body"] as? String ?? "", "folder": try params.string("folder"),
      ] as [String: any Sendable]
    },
    "count": .async { _, _ in 3 },
    "titles": .sync { _, _ in ["a", "b"] },
    "delete": .sync { _, params in try params.int("id") > 0 ? nil : "nothing deleted" },
  ]
}

final class SampleSearchTarget: Target {
  init(context: ModuleContext) throws {}

  static let actions: ActionTable<SampleSearchTarget> = [
    "query": .sync { _, params in
      [
        "text": try params.string("text"), "limit": try params.int("limit"),
        "minScore": try params.double("min_score"), "hasFilter": params["filter"] != nil,
        "default": params["default"] as? String ?? "-",
      ] as [String: any Sendable]
    }
  ]
}
