import Apiary

/// The `search` target: `query` finds notes containing every word of `q`.
final class SearchTarget: Target {
  let index: SearchIndex

  init(context: ModuleContext) throws {
    index = try context.container.resolve(SearchIndex.self)
  }

  static let actions: ActionTable<SearchTarget> = [
    "query": .sync { target, params in
      target.index.query(try params.string("q"), limit: try params.int("limit"))
    }
  ]
}
