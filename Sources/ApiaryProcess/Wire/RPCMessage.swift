import ApiaryManifest
import ApiarySupport

/// One JSON-RPC 2.0 message as it arrives: a request (with an id), a notification (without),
/// or a response to one of our requests.
///
/// ```swift
/// switch try RPCMessage(body) {
/// case .request(let id, let method, let params): …
/// case .notification(let method, let params): …
/// case .response(let id, let outcome): …
/// }
/// ```
package enum RPCMessage: Sendable {
  case request(id: JSONValue, method: String, params: JSONValue)
  case notification(method: String, params: JSONValue)
  case response(id: Int, outcome: Result<JSONValue, RPCError>)

  /// Parses a frame's body; throws an ``RPCError`` with JSON-RPC's parse or invalid-request
  /// code.
  package init(_ body: [UInt8]) throws(RPCError) {
    let value: JSONValue
    do {
      value = try WireJSON.parse(body)
    } catch {
      throw RPCError(RPCError.parseError, "not JSON: \(error)")
    }
    guard case .object(let members) = value else {
      throw RPCError(RPCError.invalidRequest, "expected a JSON object, found \(value.kindName)")
    }
    guard members["jsonrpc"] == .string("2.0") else {
      throw RPCError(RPCError.invalidRequest, "expected \"jsonrpc\": \"2.0\"")
    }
    if case .string(let method)? = members["method"] {
      let params = members["params"] ?? .object([:])
      if let id = members["id"] {
        self = .request(id: id, method: method, params: params)
      } else {
        self = .notification(method: method, params: params)
      }
      return
    }
    guard let id = members["id"]?.intValue else {
      throw RPCError(RPCError.invalidRequest, "a response needs the integer id of its request")
    }
    if let error = members["error"] {
      let code = error["code"]?.intValue ?? RPCError.internalError
      let message = error["message"]?.stringValue ?? "error without a message"
      self = .response(id: id, outcome: .failure(RPCError(code, message)))
    } else {
      self = .response(id: id, outcome: .success(members["result"] ?? .null))
    }
  }

  /// A request's or notification's body; `params` is JSON text.
  package static func request(id: Int?, method: String, params: String) -> String {
    let head = id.map { "{\"jsonrpc\":\"2.0\",\"id\":\($0)," } ?? "{\"jsonrpc\":\"2.0\","
    return head + "\"method\":" + JSONWriter.quote(method) + ",\"params\":" + params + "}"
  }

  /// A successful response's body; `result` is JSON text.
  package static func result(id: JSONValue, _ result: String) -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":" + idText(id) + ",\"result\":" + result + "}"
  }

  /// An error response's body.
  package static func error(id: JSONValue, _ error: RPCError) -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":" + idText(id) + ",\"error\":{\"code\":\(error.code),"
      + "\"message\":" + JSONWriter.quote(error.message) + "}}"
  }

  private static func idText(_ id: JSONValue) -> String {
    JSONWriter.json(id) ?? "null"
  }
}
