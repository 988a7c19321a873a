/// A parsed command line: positionals, boolean flags and `--name value` options.
///
/// Every command shares one option group, the manifests directory: the positional `DIR` after
/// the command's own positionals, or `--manifests DIR` (an alias), else `Manifests`.
struct Arguments {
  var positionals: [String] = []
  var flags: Set<String> = []
  var options: [String: String] = [:]
  /// The manifests directory (see above).
  var manifests = Host.defaultManifests

  /// The options of the shared group.
  static let manifestsOptions: Set<String> = ["--manifests"]

  /// Parses `words`, accepting only the given flags and options (`--name value` or
  /// `--name=value`). Anything else starting with `-` is a usage error.
  init(
    _ words: some Sequence<String>, flags allowedFlags: Set<String>,
    options allowedOptions: Set<String>
  )
    throws(UsageError)
  {
    var iterator = words.makeIterator()
    var onlyPositionals = false
    while let word = iterator.next() {
      guard !onlyPositionals, word.hasPrefix("-"), word != "-" else {
        positionals.append(word)
        continue
      }
      if word == "--" {
        onlyPositionals = true
        continue
      }
      let parts = word.split(separator: "=", maxSplits: 1)
      let name = String(parts[0])
      if allowedFlags.contains(name), parts.count == 1 {
        flags.insert(name)
      } else if allowedOptions.contains(name) {
        if parts.count == 2 {
          options[name] = String(parts[1])
        } else if let value = iterator.next() {
          options[name] = value
        } else {
          throw UsageError("option \(name) needs a value")
        }
      } else {
        throw UsageError("unknown option '\(word)'")
      }
    }
  }

  /// Parses `words` for a command that takes `count` positionals of its own (at most), with
  /// the shared manifests group when it `readsManifests`: the positional after them is `DIR`.
  init(
    _ words: some Sequence<String>, positionals count: Int, flags: Set<String>,
    options: Set<String>, readsManifests: Bool = true
  ) throws(UsageError) {
    try self.init(
      words, flags: flags, options: readsManifests ? options.union(Self.manifestsOptions) : options)
    let limit = readsManifests ? count + 1 : count
    guard positionals.count <= limit else {
      throw UsageError("unexpected argument '\(positionals[limit])'")
    }
    guard readsManifests else { return }
    let alias = self.options.removeValue(forKey: "--manifests")
    if positionals.count > count {
      guard alias == nil else {
        throw UsageError("give the manifests directory as DIR or as --manifests, not both")
      }
      manifests = positionals.removeLast()
    } else if let alias {
      manifests = alias
    }
  }
}

extension Arguments {
  /// `--shutdown-timeout SECONDS`, or ``Host/defaultShutdownTimeout`` when not given.
  func shutdownTimeout() throws(UsageError) -> Double {
    guard let text = options["--shutdown-timeout"] else { return Host.defaultShutdownTimeout }
    guard let seconds = Double(text), seconds > 0, seconds <= 1_000_000 else {
      throw UsageError(
        "--shutdown-timeout expects seconds, more than 0 and at most 1000000; found '\(text)'")
    }
    return seconds
  }
}

/// A command line that does not parse; the host prints it with the usage and exits with 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
