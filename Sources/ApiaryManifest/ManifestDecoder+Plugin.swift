import ApiarySupport

extension ManifestDecoder {
  /// A module's `library`, `version` and `sha256` (see ``PluginReference``): `version` is
  /// required with `library` and means nothing without it; `sha256` is 64 hex digits.
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
      for key in ["version", "sha256"] {
        if let node = fields[key] {
          report(
            .invalidValue, fields.child(key), node,
            "'\(key)' describes a plugin library; add \"library\" or remove '\(key)'")
        }
      }
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
