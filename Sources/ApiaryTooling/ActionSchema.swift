import ApiaryManifest

/// An action's parameters as a JSON Schema object, for `apiary inspect --format json`: what a
/// caller may send, with types, defaults and required keys.
///
/// ```swift
/// ActionSchema.schema(for: create)
/// // ["type": "object", "additionalProperties": false, "required": ["title"],
/// //  "properties": ["title": ["type": "string"], "pinned": ["type": "boolean", "default": false]]]
/// ```
package enum ActionSchema {
  package static func schema(for action: ActionManifest) -> [String: Any?] {
    var properties: [String: Any?] = [:]
    for parameter in action.parameters {
      var property = type(of: parameter.kind)
      if let value = parameter.defaultValue { property["default"] = value }
      properties[parameter.name] = property
    }
    return [
      "type": "object", "properties": properties, "additionalProperties": false,
      "required": action.parameters.filter(\.isRequired).map(\.name),
    ]
  }

  /// The JSON Schema type of a manifest kind; `any` allows every value.
  package static func type(of kind: ParameterManifest.Kind) -> [String: Any?] {
    switch kind {
    case .string: ["type": "string"]
    case .int: ["type": "integer"]
    case .double: ["type": "number"]
    case .bool: ["type": "boolean"]
    case .array: ["type": "array"]
    case .object: ["type": "object"]
    case .any: [:]
    }
  }
}
