import ApiarySupport
import Foundation

/// Loads and validates an application's manifests.
///
/// A manifests directory holds `app.json` (or `app.plist`), the ``ApplicationManifest``. Its
/// `modules` key lists files or directories relative to it (default `["modules"]`); a directory
/// contributes every `*.json` and `*.plist` file directly in it, sorted by name. Each module file
/// is `{"schemaVersion": 1, "modules": [...]}` (see ``ModuleManifest``); a BeeHive property list
/// with a top-level `moduleClasses` array is read too. JSON and XML or binary property lists are
/// told apart by extension (`.plist`) or by content.
///
/// Loading never throws and never stops at the first problem: every problem in every file is in
/// ``ManifestSet/problems``, with file, line, column and key path.
///
/// ```swift
/// let set = ManifestLoader(catalog: TypeCatalog()).load(directory: "Manifests")
/// for problem in set.problems { print(problem) }
/// // Manifests/modules/notes.json:6:19 modules[0].priorty: unknown key 'priorty' (did you mean 'priority'?)
/// ```
package struct ManifestLoader: Sendable {
  /// Checks the Swift type names the given modules use: one list of problems a module, in
  /// order. The kernel layer supplies it (`ManifestLoader(catalog:)`); without it, names are
  /// not checked against types.
  package let checkTypes: (@Sendable ([ModuleManifest]) -> [[ManifestProblem]])?

  /// A loader that checks manifests' structure and cross-references but not their type names.
  package init() {
    self.checkTypes = nil
  }

  package init(checkTypes: @escaping @Sendable ([ModuleManifest]) -> [[ManifestProblem]]) {
    self.checkTypes = checkTypes
  }

  /// Loads `directory/app.json` (or `app.plist`) and every module file it names, then validates
  /// the whole set (see ``validate(application:modules:checkTypes:)``).
  package func load(directory: String) -> ManifestSet {
    let files = FileManager.default
    let candidates = ["app.json", "app.plist"].map { Self.join(directory, $0) }
    guard let appFile = candidates.first(where: { files.fileExists(atPath: $0) }) else {
      return ManifestSet(problems: [
        ManifestProblem(
          .unreadable, at: SourceLocation(file: directory),
          "no application manifest: expected app.json or app.plist in this directory")
      ])
    }
    var set = ManifestSet(files: [appFile])
    var modulePaths: [(path: String, location: SourceLocation)] = []
    switch Self.read(appFile) {
    case .failure(let problem):
      set.problems.append(problem)
    case .success(let data):
      let decoded = Self.decodeApplication(data, file: appFile)
      set.application = decoded.application
      set.problems += decoded.problems
      modulePaths = decoded.modulePaths
    }
    let base = (appFile as NSString).deletingLastPathComponent
    // When the application manifest cannot say where modules are, check the default directory
    // anyway (if it exists), so one run reports the problems of every file.
    let defaultDirectory = Self.join(base, "modules")
    if set.application == nil, modulePaths.isEmpty, files.fileExists(atPath: defaultDirectory) {
      modulePaths = [("modules", SourceLocation(file: appFile))]
    }
    // The application manifest is never read as a module file, even when `modules` lists the
    // directory it is in.
    // Files are recognised by a normalised spelling; only the listed paths are normalised, not
    // every file, since per-file path work shows in the boot time of many small manifests.
    var seen: Set<String> = [Self.normalized(appFile)]
    for (path, location) in modulePaths {
      let target = Self.join(base, path)
      let prefix = Self.normalized(target)
      for (file, name) in Self.moduleFiles(at: target, location, &set.problems)
      where seen.insert(name.map { Self.join(prefix, $0) } ?? prefix).inserted {
        set.files.append(file)
        let decoded = decodeModules(file: file)
        set.modules += decoded.modules
        set.problems += decoded.problems
      }
    }
    set.problems += Self.validate(
      application: set.application, modules: set.modules, checkTypes: checkTypes)
    return set
  }

  /// Reads one module manifest file without cross-validation (the kernel validates modules
  /// added at run time together with those already loaded).
  package func decodeModules(file: String) -> ManifestSet {
    switch Self.read(file) {
    case .failure(let problem): ManifestSet(problems: [problem], files: [file])
    case .success(let data): Self.decodeModules(data, file: file)
    }
  }

  /// Decodes the module manifest file `data`, naming it `file` in problems; no cross-validation.
  ///
  /// ```swift
  /// let set = ManifestLoader.decodeModules(Data(json.utf8), file: "notes.json")
  /// ```
  package static func decodeModules(_ data: Data, file: String) -> ManifestSet {
    let (root, problems) = parse(data, file: file)
    var decoder = ManifestDecoder(file: file)
    let modules = root.map { decoder.moduleFile($0) } ?? []
    return ManifestSet(
      modules: modules, problems: inDocumentOrder(problems + decoder.problems), files: [file])
  }

  /// Decodes the application manifest `data`, naming it `file` in problems. `modulePaths` are
  /// the module locations it lists, with where each was written.
  static func decodeApplication(_ data: Data, file: String) -> (
    application: ApplicationManifest?, modulePaths: [(path: String, location: SourceLocation)],
    problems: [ManifestProblem]
  ) {
    let (root, problems) = parse(data, file: file)
    guard let root else { return (nil, [], problems) }
    var decoder = ManifestDecoder(file: file)
    let (application, modulePaths) = decoder.application(root)
    return (application, modulePaths, inDocumentOrder(problems + decoder.problems))
  }

  /// One file's problems sorted by position (those without one keep their order, last).
  static func inDocumentOrder(_ problems: [ManifestProblem]) -> [ManifestProblem] {
    problems.enumerated().sorted { a, b in
      let left = (a.element.location.line ?? Int.max, a.element.location.column ?? 0, a.offset)
      let right = (b.element.location.line ?? Int.max, b.element.location.column ?? 0, b.offset)
      return left < right
    }.map(\.element)
  }

  /// Cross-checks modules: duplicate names, unknown, disabled and self dependencies, dependency
  /// cycles (`a → b → c → a`), type names (with `checkTypes`), duplicate targets, actions,
  /// parameters and services, parameter defaults.
  ///
  /// ```swift
  /// let problems = ManifestLoader.validate(
  ///   application: set.application, modules: set.modules + added, checkTypes: nil)
  /// ```
  ///
  /// `application` is taken for application-wide checks; none use it yet (the fallback target is
  /// not checked, since it may be registered in code rather than declared).
  package static func validate(
    application: ApplicationManifest?, modules: [ModuleManifest],
    checkTypes: (([ModuleManifest]) -> [[ManifestProblem]])?
  ) -> [ManifestProblem] {
    ManifestValidator.validate(
      application: application, modules: modules, checkTypes: checkTypes)
  }

  // MARK: Files

  /// Parses JSON or a property list into a positioned tree.
  static func parse(_ data: Data, file: String) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    let isPropertyList =
      file.hasSuffix(".plist") || data.withUnsafeBytes(PropertyListReader.looksLikePropertyList)
    if isPropertyList { return PropertyListReader.parse(data, file: file) }
    return data.withUnsafeBytes { JSONParser.parse($0, file: file) }
  }

  static func read(_ file: String) -> Result<Data, ManifestProblem> {
    if let data = FileManager.default.contents(atPath: file) { return .success(data) }
    return .failure(
      ManifestProblem(.unreadable, at: SourceLocation(file: file), "cannot read this file"))
  }

  /// The module files `path` stands for: itself (with no name), or the `*.json` and `*.plist`
  /// files in it, with their names.
  static func moduleFiles(
    at path: String, _ location: SourceLocation, _ problems: inout [ManifestProblem]
  ) -> [(file: String, name: String?)] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      problems.append(
        ManifestProblem(
          .unreadable, at: location, "no such file or directory: \(path)"))
      return []
    }
    guard isDirectory.boolValue else { return [(path, nil)] }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
      problems.append(ManifestProblem(.unreadable, at: location, "cannot list directory \(path)"))
      return []
    }
    return
      names
      .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".json") || $0.hasSuffix(".plist")) }
      .sorted()
      .map { (join(path, $0), $0) }
  }

  /// `path` without `.` and empty components and with `..` applied, so one file reached by two
  /// spellings is read once. Symbolic links are not resolved.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else {
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : joined
  }

  static func join(_ directory: String, _ name: String) -> String {
    if name.hasPrefix("/") || directory.isEmpty { return name }
    return directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
  }
}
