/// A typed error as data: its type, its case (an error struct's code, or an enum's case), the
/// case's labelled values and its message. Read by reflection, so every error of the runtime is
/// covered without a table: an error struct's values are its `details` enum.
///
/// ```swift
/// ErrorReport(MediatorError.notRemote(target: "notes", action: "delete")).json
/// // ["type": "MediatorError", "case": "notRemote",
/// //  "details": ["target": "notes", "action": "delete"], "message": "…"]
/// ```
package struct ErrorReport {
  package let json: [String: Any?]

  package init(_ error: any Error) {
    var caseName: String?
    var details: [String: Any?] = [:]
    let values = Mirror(reflecting: error).children.first { $0.label == "details" }?.value
    let mirror = Mirror(reflecting: values ?? error)
    if mirror.displayStyle == .enum {
      if let child = mirror.children.first {
        caseName = child.label
        let values = Mirror(reflecting: child.value)
        if values.displayStyle == .tuple {
          for (index, value) in values.children.enumerated() {
            details[Self.label(value.label, index)] = Self.plain(value.value)
          }
        } else {
          details["value"] = Self.plain(child.value)
        }
      } else {
        caseName = String(describing: error)
      }
    }
    json = [
      "type": String(describing: type(of: error)), "case": caseName, "details": details,
      "message": String(describing: error),
    ]
  }

  /// A tuple element's label; unlabelled elements (`.0`) are named by position.
  private static func label(_ label: String?, _ index: Int) -> String {
    guard let label, !label.hasPrefix(".") else { return "\(index)" }
    return label
  }

  /// Strings, numbers, booleans and arrays of them as they are; anything else as its
  /// description.
  private static func plain(_ value: Any) -> Any {
    switch value {
    case let value as String: value
    case let value as Int: value
    case let value as Bool: value
    case let value as Double: value
    case let value as [String]: value
    default: String(describing: value)
    }
  }
}
