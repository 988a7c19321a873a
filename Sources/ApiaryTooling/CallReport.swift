import ApiaryMediator

/// `apiary call --format json`: the result of one call, or the typed error that refused it.
///
/// ```swift
/// CallReport.success(url: url, result: ["id": 1])
/// // {"command":"call","ok":true,"result":{"id":1},"schemaVersion":1,"url":"…"}
/// CallReport.failure(url: url, error: MediatorError.notRemote(target: "notes", action: "delete"))
/// // …"error":{"case":"notRemote","details":{"action":"delete","target":"notes"},
/// //            "message":"…","type":"MediatorError"},"ok":false…
/// ```
package enum CallReport {
  /// A result that is not JSON-representable is written as its description; one nested too
  /// deep is refused as ``ResultRenderer/render(_:)`` refuses it.
  package static func success(url: String, result: (any Sendable)?) throws(MediatorError)
    -> String
  {
    let json = ResultRenderer.json(result) != nil
    return JSONDocument.render(
      command: "call",
      [
        "url": url, "ok": true,
        "result": json ? result : try ResultRenderer.render(result),
      ])
  }

  package static func failure(url: String, error: any Error) -> String {
    JSONDocument.render(
      command: "call", ["url": url, "ok": false, "error": ErrorReport(error).json])
  }
}
