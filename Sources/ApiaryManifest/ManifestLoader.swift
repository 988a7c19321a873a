import ApiarySupport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loads and validates an application's manifests.
///
/// A manifests directory holds `app.json` (or `app.plist`), the ``ApplicationManifest``. Its
/// `modules` key lists files or directories relative to it (default `["modules"]`); a directory
/// contributes every `*.json` and `*.plist` file directly in it, sorted by name. Each module file
/// is `{"schemaVersion": 1, "modules": [...]}` (see ``ModuleManifest``); a BeeHive property list
/// with a top-level `moduleClasses` array is read too. A `.json` file is JSON and a `.plist` file
/// an XML or binary property list; other names are told apart by content.
///
/// Manifests cannot hurt the host: every file is bounded by ``ManifestLimits`` (the application
/// manifest's `limits`), only regular files are read, paths that leave the manifests directory
/// are refused unless `allowOutsidePaths` is set, and problems never quote bytes that did not
/// parse as a manifest.
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
  /// Makes the check of the Swift type names modules use, one for each validation. The kernel
  /// layer supplies it (`ManifestLoader(catalog:)`); without it, names are not checked against
  /// types.
  package let makeTypeCheck: (@Sendable () -> TypeCheck)?
  /// Limits for files read by ``decodeModules(file:)``; ``load(directory:)`` reads the
  /// application manifest with the defaults and module files with its `limits`.
  package var limits: ManifestLimits = .default

  /// A loader that checks manifests' structure and cross-references but not their type names.
  package init() {
    self.makeTypeCheck = nil
  }

  package init(makeTypeCheck: @escaping @Sendable () -> TypeCheck) {
    // Wrapped by hand: Swift 6.3 rejects the implicit wrap as sending a non-Sendable closure.
    self.makeTypeCheck = .some(makeTypeCheck)
  }

  /// Loads `directory/app.json` (or `app.plist`) and every module file it names, then validates
  /// the whole set (see ``validate(application:modules:checkTypes:)``).
  package func load(directory: String) -> ManifestSet {
    var set = loadUnvalidated(directory: directory)
    set.problems += Self.validate(
      application: set.application, modules: set.modules, checkTypes: makeTypeCheck?())
    return set
  }

  /// Like ``load(directory:)`` without the cross-validation, for a host that loads the plugin
  /// libraries the modules name (registering their types) before it validates.
  package func loadUnvalidated(directory: String) -> ManifestSet {
    let files = FileManager.default
    let candidates = ["app.json", "app.plist"].map { Self.join(directory, $0) }
    // A symbolic link to nothing is the application manifest, which then cannot be read.
    func exists(_ file: String) -> Bool {
      files.fileExists(atPath: file) || (try? files.destinationOfSymbolicLink(atPath: file)) != nil
    }
    let appFile = candidates.first(where: exists)
    guard let appFile else {
      let message =
        switch FileKind(path: directory) {
        case nil: "no such directory; expected a manifests directory with app.json or app.plist"
        case .other: "not a directory; expected a manifests directory with app.json or app.plist"
        case .directory: "no application manifest: expected app.json or app.plist in this directory"
        }
      return ManifestSet(problems: [
        ManifestProblem(.unreadable, at: SourceLocation(file: directory), message)
      ])
    }
    var set = ManifestSet(files: [appFile])
    if appFile == candidates[0], exists(candidates[1]) {
      set.problems.append(
        ManifestProblem(
          .duplicateName, at: SourceLocation(file: candidates[1]),
          "both app.json and app.plist are here; the application manifest is app.json (remove one)"
        ))
    }
    var modulePaths: [(path: String, location: SourceLocation)] = []
    do {
      let decoded = Self.decodeApplication(
        try Self.contents(of: appFile, limits: .default), file: appFile)
      set.application = decoded.application
      set.problems += decoded.problems
      modulePaths = decoded.modulePaths
    } catch {
      set.problems.append(error)
    }
    let base = Self.directory(of: appFile)
    // When the application manifest cannot say where modules are, check the default directory
    // anyway (if it exists), so one run reports the problems of every file.
    let defaultDirectory = Self.join(base, "modules")
    if set.application == nil, modulePaths.isEmpty, files.fileExists(atPath: defaultDirectory) {
      modulePaths = [("modules", SourceLocation(file: appFile))]
    }
    // The application manifest is never read as a module file, even when `modules` lists the
    // directory it is in.
    // Files are recognised by a normalised spelling; only the listed paths are normalised, not
    // every file, since per-file path work shows in the boot time of many small manifests. One
    // listed path cannot name a file twice, so it is only compared with the application file.
    let appKey = ReadablePath.normalized(appFile)
    var seen: Set<String> = [appKey]
    let single = modulePaths.count == 1
    func isNew(_ key: String) -> Bool { single ? key != appKey : seen.insert(key).inserted }
    // With one listed path, a listed file is the application file only if it has its name.
    let appName = appKey.split(separator: "/").last.map(String.init) ?? appKey
    let limits = set.application?.limits ?? .default
    // Without `allowOutsidePaths`, each path must resolve inside the real manifests directory.
    let root =
      set.application?.allowsOutsidePaths == true ? nil : Self.realPath(base.isEmpty ? "." : base)
    for (path, location) in modulePaths {
      let target = Self.join(base, path)
      if let root, let problem = Self.outside(path, target, root: root, at: location) {
        set.problems.append(problem)
        continue
      }
      let prefix = ReadablePath.normalized(target)
      let files = Self.moduleFiles(at: target, location, &set.problems).filter { file in
        guard let name = file.name else { return isNew(prefix) }
        return single && name != appName ? true : isNew(Self.join(prefix, name))
      }
      set.files += files.map(\.path)
      ModuleFiles(directory: target, files: files).decode(limits, inside: root, into: &set)
    }
    return set
  }

  /// Reads one module manifest file without cross-validation (the kernel validates modules
  /// added at run time together with those already loaded).
  package func decodeModules(file: String) -> ManifestSet {
    do {
      return Self.decodeModules(
        try Self.contents(of: file, limits: limits), file: file, limits: limits)
    } catch {
      return ManifestSet(problems: [error], files: [file])
    }
  }

  /// Decodes the module manifest file `data`, naming it `file` in problems; no cross-validation.
  ///
  /// ```swift
  /// let set = ManifestLoader.decodeModules(Data(json.utf8), file: "notes.json")
  /// ```
  package static func decodeModules(
    _ data: Data, file: String, limits: ManifestLimits = .default
  ) -> ManifestSet {
    data.withUnsafeBytes { bytes in decodeModules(bytes, file: file, limits: limits) }
  }

  static func decodeModules(
    _ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits
  ) -> ManifestSet {
    var set = ManifestSet(files: [file])
    decodeModules(bytes, file: file, limits: limits, into: &set)
    return set
  }

  /// Appends the modules of the module file `bytes`, and its problems in document order, to
  /// `set` (whose files it leaves as they are). With `repeated`, values repeated across the
  /// modules of several files are shared (see ``RepeatedValues``).
  static func decodeModules(
    _ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits,
    repeated: RepeatedValues? = nil, into set: inout ManifestSet
  ) {
    // A valid JSON file is decoded from the parser's tokens; any other is parsed into the
    // positioned tree, whose decoding reports every problem.
    if file.hasSuffix(".json"), bytes.count <= limits.fileSize,
      let modules = JSONParser.decodeModuleFile(
        bytes, file: file, limits: limits, repeated: repeated)
    {
      set.modules += modules
      return
    }
    let (root, problems) = parse(bytes, file: file, limits: limits)
    var decoder = ManifestDecoder(file: file)
    if let root { set.modules += decoder.moduleFile(root) }
    set.problems += inDocumentOrder(problems + decoder.problems)
  }

  /// Decodes the application manifest `data`, naming it `file` in problems. `modulePaths` are
  /// the module locations it lists, with where each was written.
  static func decodeApplication(_ data: Data, file: String) -> (
    application: ApplicationManifest?, modulePaths: [(path: String, location: SourceLocation)],
    problems: [ManifestProblem]
  ) {
    let (root, problems) = parse(data, file: file, limits: .default)
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
    application: ApplicationManifest?, modules: [ModuleManifest], checkTypes: TypeCheck?
  ) -> [ManifestProblem] {
    validateIndexing(application: application, modules: modules, checkTypes: checkTypes).problems
  }

  /// Like ``validate(application:modules:checkTypes:)``; when there is no problem, also the
  /// modules' ``ModuleIndex``, for the boot plan.
  package static func validateIndexing(
    application: ApplicationManifest?, modules: [ModuleManifest], checkTypes: TypeCheck?
  ) -> (problems: [ManifestProblem], index: ModuleIndex?) {
    let (problems, index) = ManifestValidator.validate(
      application: application, modules: modules, checkTypes: checkTypes)
    return (pinpointed(problems, limits: application?.limits ?? .default), index)
  }

  /// `problems`, each at the value its key path names. The validator keeps one position per
  /// module (and per service and target), not per value, so a problem with a module's `type`
  /// or a dependency was placed at the module's `{`; the files with problems are parsed again
  /// to find the value, on this error path only. A place that cannot be found (the file changed,
  /// or a property list, which has no positions) keeps its position.
  static func pinpointed(_ problems: [ManifestProblem], limits: ManifestLimits)
    -> [ManifestProblem]
  {
    guard !problems.isEmpty else { return problems }
    var roots: [String: ManifestNode?] = [:]
    return problems.map { problem in
      let location = problem.location
      guard location.line != nil, !location.keyPath.isEmpty else { return problem }
      if roots[location.file] == nil {
        let data = try? contents(of: location.file, limits: limits)
        roots[location.file] = data.flatMap { parse($0, file: location.file, limits: limits).root }
      }
      guard let root = roots[location.file] ?? nil, let node = root.node(at: location.keyPath),
        node.line > 0
      else { return problem }
      var pinpointed = problem
      pinpointed.location.line = node.line
      pinpointed.location.column = node.column
      return pinpointed
    }
  }

  // MARK: Files

  /// Parses JSON or a property list into a positioned tree: `.json` is JSON and `.plist` a
  /// property list whatever they hold; other names are told apart by content.
  static func parse(_ data: Data, file: String, limits: ManifestLimits) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    data.withUnsafeBytes { bytes in parse(bytes, file: file, limits: limits) }
  }

  static func parse(_ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    guard bytes.count <= limits.fileSize else {
      return (nil, [tooLarge(file, bytes.count, limits)])
    }
    let isPropertyList =
      file.hasSuffix(".plist")
      || (!file.hasSuffix(".json") && PropertyListReader.looksLikePropertyList(bytes))
    if isPropertyList { return PropertyListReader.parse(bytes, file: file, limits: limits) }
    return JSONParser.parse(bytes, file: file, limits: limits)
  }

  /// Whether the manifest file `bytes` parse, as loading parses every file before decoding it
  /// (into the same positioned tree, which is then dropped): the floor any manifest-driven boot
  /// pays, which the benchmarks compare boot with.
  ///
  /// ```swift
  /// var text = #"{"schemaVersion": 1, "modules": []}"#
  /// text.withUTF8 { ManifestLoader.parses(UnsafeRawBufferPointer($0), file: "m.json") }  // true
  /// ```
  package static func parses(_ bytes: UnsafeRawBufferPointer, file: String) -> Bool {
    parse(bytes, file: file, limits: .default).root != nil
  }

  static func tooLarge(_ file: String, _ size: Int, _ limits: ManifestLimits) -> ManifestProblem {
    ManifestProblem(
      .limitExceeded, at: SourceLocation(file: file),
      "file is \(size) bytes, more than \(limits.fileSize); \(ManifestLimits.hint("fileSize"))")
  }

  /// Reads `file` if it is a regular file of at most `limits.fileSize` bytes (never a device or
  /// a pipe, which could block or never end). With `inside`, a symbolic link must resolve to a
  /// path under that directory.
  static func contents(of file: String, limits: ManifestLimits, inside root: String? = nil)
    throws(ManifestProblem) -> Data
  {
    var buffer: [UInt8] = []
    let count = try contents(of: file, limits: limits, inside: root, into: &buffer)
    return Data(buffer[..<count])
  }

  /// Reads `file` as ``contents(of:limits:inside:)`` does, into the start of `buffer` (grown as
  /// needed, so one buffer serves many files), and returns the number of bytes read. With `at`
  /// (an open descriptor of the directory `file` is in, and its name there), the file is opened
  /// relative to that directory, which spares the kernel walking the whole path for each file.
  /// With `isRegular` (the directory listing said so), a file that fits the buffer is read
  /// without asking its size first; a longer one is then checked as any other.
  static func contents(
    of file: String, at directory: (descriptor: Int32, name: String)? = nil,
    isRegular: Bool = false, limits: ManifestLimits, inside root: String? = nil,
    into buffer: inout [UInt8]
  ) throws(ManifestProblem) -> Int {
    func problem(_ kind: ManifestProblem.Kind, _ message: String) -> ManifestProblem {
      ManifestProblem(kind, at: SourceLocation(file: file), message)
    }
    // `open` would read the path only up to it (a `:load` line's, say), and open another file.
    guard !ManifestDecoder.containsNUL(file) else {
      throw problem(
        .unreadable, "cannot read this file: its path contains a NUL character (\\u0000)")
    }
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
    func openFile(_ flags: Int32) -> Int32 {
      directory.map { openat($0.descriptor, $0.name, flags) } ?? open(file, flags)
    }
    // O_NOFOLLOW fails on a symbolic link, which is then resolved and checked once; one that
    // resolves to nothing (missing, or a loop) fails to open below, saying why.
    var descriptor = openFile(flags | (root == nil ? 0 : O_NOFOLLOW))
    var isRegular = isRegular
    if descriptor < 0, errno == ELOOP, let root {
      if let real = realPath(file), !isInside(real, root) {
        throw problem(.outsideDirectory, outsideMessage("is a symbolic link to a file"))
      }
      descriptor = openFile(flags)
      isRegular = false
    }
    guard descriptor >= 0 else {
      throw problem(.unreadable, "cannot read this file: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    /// The size `fstat` gives, once the file is known to be regular and within the limit.
    func size() throws(ManifestProblem) -> Int {
      var status = stat()
      guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        throw problem(.unreadable, "not a regular file")
      }
      guard Int(status.st_size) <= limits.fileSize else {
        throw tooLarge(file, Int(status.st_size), limits)
      }
      return Int(status.st_size)
    }
    // The size, when known; a listed regular file is first read into the buffer as it is.
    var expected: Int?
    if !isRegular { expected = try size() }
    let least = expected.map { $0 + 1 } ?? min(1 << 14, limits.fileSize + 1)
    if buffer.count < least { buffer = [UInt8](repeating: 0, count: least) }
    // Read to the end (the file may have grown since fstat), never past the limit.
    var filled = 0
    while true {
      if filled == buffer.count {
        if expected == nil {
          // A listed file that fills the buffer: its size decides, as for any other file.
          expected = try size()
          if let expected, buffer.count <= expected {
            buffer += [UInt8](repeating: 0, count: expected + 1 - buffer.count)
          }
          continue
        }
        guard filled <= limits.fileSize else { throw tooLarge(file, filled, limits) }
        buffer += [UInt8](repeating: 0, count: min(2 * filled, limits.fileSize + 1) - filled)
      }
      let asked = buffer.count - filled
      let count = buffer.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { read(descriptor, $0 + filled, asked) } ?? -1
      }
      if count == 0 { return filled }
      if count < 0 {
        if errno == EINTR { continue }
        throw problem(.unreadable, "cannot read this file: \(String(cString: strerror(errno)))")
      }
      filled += count
      // The size fstat gave, read with room to spare: the end, without one more `read`.
      if let expected, filled == expected, filled < buffer.count { return filled }
      // A regular file reads short only at its end, so a listed file that did not fill the
      // buffer has been read whole, in one `read`.
      if expected == nil, count < asked { return filled }
    }
  }

  /// The problem for a `modules` entry that leaves the manifests directory `root` (a real
  /// path), or nil when it stays inside.
  static func outside(
    _ path: String, _ target: String, root: String, at location: SourceLocation
  ) -> ManifestProblem? {
    if path.hasPrefix("/") || ReadablePath.normalized(path).hasPrefix("..") {
      return ManifestProblem(.outsideDirectory, at: location, outsideMessage("is a path"))
    }
    // A missing path is reported when its files are listed.
    guard let real = realPath(target), !isInside(real, root) else { return nil }
    return ManifestProblem(
      .outsideDirectory, at: location, outsideMessage("goes through a symbolic link"))
  }

  static func outsideMessage(_ what: String) -> String {
    "\(what) outside the manifests directory; set \"allowOutsidePaths\": true in the "
      + "application manifest to allow it"
  }

  /// `path` with symbolic links, `.` and `..` resolved, or nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  static func isInside(_ real: String, _ root: String) -> Bool {
    real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// The module files `path` stands for: itself (with no name), or the `*.json` and `*.plist`
  /// files in it, with their names, sorted by name. `isRegular` is what the listing says
  /// without asking each file (a symbolic link or an unknown kind is not).
  static func moduleFiles(
    at path: String, _ location: SourceLocation, _ problems: inout [ManifestProblem]
  ) -> [ModuleFiles.File] {
    guard let kind = FileKind(path: path) else {
      // `stat`'s reason, as "no such file or directory" or "too many levels of symbolic links".
      let reason = String(cString: strerror(errno)).lowercased()
      problems.append(ManifestProblem(.unreadable, at: location, "\(reason): \(path)"))
      return []
    }
    guard kind == .directory else { return [ModuleFiles.File(path: path)] }
    guard let listing = opendir(path) else {
      problems.append(ManifestProblem(.unreadable, at: location, "cannot list directory \(path)"))
      return []
    }
    defer { closedir(listing) }
    var files: [(name: String, isRegular: Bool)] = []
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { field in
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix("."), name.hasSuffix(".json") || name.hasSuffix(".plist") else {
        continue
      }
      files.append((name, entry.pointee.d_type == UInt8(DT_REG)))
    }
    // The directory's part of every path, made once: each path is then one allocation.
    let prefix = join(path, "")
    files.sort { $0.name < $1.name }
    return files.map { name, isRegular in
      ModuleFiles.File(path: prefix + name, name: name, isRegular: isRegular)
    }
  }

  /// The directory `file` is in, as `NSString.deletingLastPathComponent` has it:
  /// `a/app.json` → `a`, `app.json` → the empty string, `/app.json` → `/`.
  static func directory(of file: String) -> String {
    var path = Substring(file)
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var head = path[..<slash]
    while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
    return head.isEmpty ? "/" : String(head)
  }

  static func join(_ directory: String, _ name: String) -> String {
    if name.hasPrefix("/") || directory.isEmpty { return name }
    return directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
  }
}
