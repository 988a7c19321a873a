// Stand-in for branch `gate`; see README.md here.

/// A plugin's descriptor: the `apiary_plugin` section's lines of `key value`.
public struct PluginDescriptor: Sendable {
  public var plugin = ""
  public var version: SemanticVersion
  public var apiary = ""
  public var abi = ""
  public var compiler = ""
  public var triple = ""
  public var modules: [String] = []
  public var targets: [String] = []
  public var requires: [(name: String, range: VersionRange)] = []
  /// The text as written, for `apiary plugin inspect`.
  public let text: String

  public static func parse(_ section: [UInt8], file: String) -> (
    descriptor: PluginDescriptor?, problems: [PluginProblem]
  ) {
    let text = String(decoding: section.prefix { $0 != 0 }, as: UTF8.self)
    do throws(PluginProblem) {
      return (try PluginDescriptor(text: text, file: file), [])
    } catch {
      return (nil, [error])
    }
  }

  init(text: String, file: String) throws(PluginProblem) {
    self.text = text
    var version: SemanticVersion?
    for (number, line) in text.split(separator: "\n").enumerated() {
      let parts = line.split(separator: " ", maxSplits: 1)
      let key = String(parts[0])
      let value = parts.count == 2 ? String(parts[1]) : ""
      switch key {
      case "descriptor": break
      case "plugin": plugin = value
      case "version":
        version = try? SemanticVersion(value)
      case "apiary": apiary = value
      case "abi": abi = value
      case "compiler": compiler = value
      case "triple": triple = value
      case "module": modules.append(value)
      case "target": targets.append(value)
      case "requires":
        let words = value.split(separator: " ", maxSplits: 1)
        do {
          requires.append(
            (String(words[0]), try VersionRange(words.count == 2 ? String(words[1]) : "")))
        } catch {
          throw PluginProblem(
            file: file, field: "descriptor line \(number + 1): requires", expected: error.expected,
            found: error.found, message: error.message)
        }
      default:
        throw PluginProblem(
          file: file, field: "descriptor line \(number + 1)", expected: "a known key",
          found: key, message: "unknown descriptor key")
      }
    }
    guard let version else {
      throw PluginProblem(
        file: file, field: "version", expected: "a SemVer version", found: "none",
        message: "malformed descriptor")
    }
    self.version = version
  }
}
