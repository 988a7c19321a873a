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
    var version: JSONValue?
    var id: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    var result: JSONValue?
    var error: JSONValue?
    do {
      // Of duplicate members the last counts, as in the dictionary of a parsed object.
      let other = try WireJSON.parse(body) { key, value in
        switch key {
        case "jsonrpc": version = value
        case "id": id = value
        case "method": method = value
        case "params": params = value
        case "result": result = value
        case "error": error = value
        default: break
        }
      }
      if let other {
        throw RPCError(RPCError.invalidRequest, "expected a JSON object, found \(other.kindName)")
      }
    } catch let error as RPCError {
      throw error
    } catch {
      throw RPCError(RPCError.parseError, "not JSON: \(error)")
    }
    guard version == .string("2.0") else {
      throw RPCError(RPCError.invalidRequest, "expected \"jsonrpc\": \"2.0\"")
    }
    if case .string(let method)? = method {
      let params = params ?? .object([:])
      if let id {
        self = .request(id: id, method: method, params: params)
      } else {
        self = .notification(method: method, params: params)
      }
      return
    }
    guard let id = id?.intValue else {
      throw RPCError(RPCError.invalidRequest, "a response needs the integer id of its request")
    }
    switch (result, error) {
    case (let result?, nil):
      self = .response(id: id, outcome: .success(result))
    case (nil, .object(let error)?):
      let code = error["code"]?.intValue ?? RPCError.internalError
      let message = error["message"]?.stringValue ?? "error without a message"
      self = .response(id: id, outcome: .failure(RPCError(code, message)))
    case (nil, let error?):
      throw RPCError(
        RPCError.invalidRequest,
        "the error of a response needs to be an object, found \(error.kindName)")
    case (nil, nil):
      throw RPCError(
        RPCError.invalidRequest, "a response needs \"result\" or \"error\", found neither")
    case (.some, .some):
      throw RPCError(
        RPCError.invalidRequest, "a response has \"result\" or \"error\", found both")
    }
  }

  /// A request's or notification's body; `params` is JSON text.
  package static func request(id: Int?, method: String, params: String) -> [UInt8] {
    var body = Self.head(capacity: 48 + method.utf8.count + params.utf8.count)
    if let id {
      body += #""id":"#.utf8
      body += String(id).utf8
      body.append(UInt8(ascii: ","))
    }
    body += #""method":"#.utf8
    JSONWriter.quote(method, to: &body)
    body += #","params":"#.utf8
    body += params.utf8
    body.append(UInt8(ascii: "}"))
    return body
  }

  /// A successful response's body; `result` is JSON text.
  package static func result(id: JSONValue, _ result: String) -> [UInt8] {
    var body = Self.head(capacity: 48 + result.utf8.count)
    body += #""id":"#.utf8
    body += idText(id).utf8
    body += #","result":"#.utf8
    body += result.utf8
    body.append(UInt8(ascii: "}"))
    return body
  }

  /// An error response's body.
  package static func error(id: JSONValue, _ error: RPCError) -> [UInt8] {
    var body = Self.head(capacity: 80 + error.message.utf8.count)
    body += #""id":"#.utf8
    body += idText(id).utf8
    body += #","error":{"code":"#.utf8
    body += String(error.code).utf8
    body += #","message":"#.utf8
    JSONWriter.quote(error.message, to: &body)
    body += "}}".utf8
    return body
  }

  /// `{"jsonrpc":"2.0",`, with room for the rest.
  private static func head(capacity: Int) -> [UInt8] {
    var body: [UInt8] = []
    body.reserveCapacity(capacity)
    body += #"{"jsonrpc":"2.0","#.utf8
    return body
  }

  private static func idText(_ id: JSONValue) -> String {
    if case .int(let number) = id { return String(number) }
    return JSONWriter.json(id) ?? "null"
  }
}
