import ApiarySupport

extension ManifestDecoder {
  /// A module's `library`, `version` and `sha256` (see ``PluginReference``): `version` is
  /// required with `library` and means nothing without it; `sha256` is 64 hex digits. Nil when
  /// there is no `library`, or when it has problems (reported; the module then
  /// ``ModuleManifest/namesBrokenPlugin``).
  mutating func pluginReference(_ fields: Fields) -> PluginReference? {
    let library = string(fields, "library")
    let version = string(fields, "version")
    var sha256 = string(fields, "sha256")
    if let digest = sha256, let node = fields["sha256"] {
      let isHex = digest.utf8.count == 64 && digest.lowercased().allSatisfy(\.isHexDigit)
      if !isHex {
        report(
          .invalidValue, fields.child("sha256"), node,
          "expected 64 hexadecimal digits (the SHA-256 of the library), found '\(digest)'")
        sha256 = nil
      }
    }
    guard let library, let libraryNode = fields["library"] else {
      // A `library` that is not a string is reported as such: the others are not misplaced.
      guard fields["library"] == nil else { return nil }
      for key in ["version", "sha256"] {
        if let node = fields[key] {
          report(
            .invalidValue, fields.child(key), node,
            "'\(key)' describes a plugin library; add \"library\" or remove '\(key)'")
        }
      }
      return nil
    }
    guard !library.isEmpty else {
      report(
        .invalidValue, fields.child("library"), libraryNode,
        "expected the path of the plugin's shared library (relative to this manifest), found an "
          + "empty string")
      return nil
    }
    guard checkPath(library, fields.child("library"), libraryNode, what: "a path") else {
      return nil
    }
    guard let version else {
      _ = member(fields, "version", "string, the plugin's SemVer version", required: true)
      return nil
    }
    return PluginReference(
      library: library, version: version, sha256: sha256?.lowercased(),
      source: location(fields.child("library"), libraryNode))
  }
}

extension ManifestDecoder {
  /// A module's `placement` and `command`: `command` is a non-empty array of strings, the
  /// first of them not empty, and belongs to a process-placed module.
  mutating func placement(_ fields: Fields) -> (ModuleManifest.Placement, [String]?) {
    let placement = enumValue(fields, "placement", ModuleManifest.Placement.self) ?? .host
    var kept: [Int]?
    guard let command = strings(fields, "command", kept: &kept), let node = fields["command"],
      case .array(let items) = node.value
    else {
      return (placement, nil)
    }
    if command.isEmpty {
      report(
        .invalidValue, fields.child("command"), node,
        "expected the program and its arguments, found an empty array")
      return (placement, nil)
    }
    // Each string's index in the file: entries that are not strings were left out.
    let indices = command.indices.map { ManifestValidator.index($0, kept) }
    if command[0].isEmpty, let index = indices.first {
      report(
        .invalidValue, Self.indexed(fields.child("command"), index), items[index],
        "expected the program to start (its name or path), found an empty string")
      return (placement, nil)
    }
    var holdsNUL = false
    for (argument, index) in zip(command, indices) {
      let path = Self.indexed(fields.child("command"), index)
      holdsNUL = !checkPath(argument, path, items[index], what: "a program or argument") || holdsNUL
    }
    guard !holdsNUL else { return (placement, nil) }
    if placement != .process {
      report(
        .invalidValue, fields.child("command"), node,
        "'command' starts a process-placed module; add \"placement\": \"process\" or remove it")
    }
    return (placement, command)
  }
}
