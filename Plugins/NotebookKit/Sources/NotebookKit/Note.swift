/// A note of the sample Notebook application.
public struct Note: Sendable, Hashable, Codable {
  public var id: Int
  public var title: String
  public var body: String
  public var pinned: Bool

  public init(id: Int, title: String, body: String = "", pinned: Bool = false) {
    self.id = id
    self.title = title
    self.body = body
    self.pinned = pinned
  }

  /// The note as an action result: a dictionary of JSON-representable values.
  public var fields: [String: any Sendable] {
    ["id": id, "title": title, "body": body, "pinned": pinned]
  }
}
