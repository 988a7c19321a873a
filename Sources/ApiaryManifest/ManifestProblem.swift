import ApiarySupport

/// One thing wrong with a set of manifests: where it is (file, line, column, key path) and what a
/// user should fix.
///
/// ```swift
/// do {
///   _ = try Kernel(manifestsAt: "Manifests")
/// } catch .invalidManifests(let problems) {
///   for problem in problems { print(problem) }
///   // Manifests/modules/notes.json:14:19 modules[2].priority: expected integer, found string "high"
/// } catch {
///   print(error)
/// }
/// ```
package struct ManifestProblem: Error, Sendable, Hashable, CustomStringConvertible {
  public var kind: Kind
  public var location: SourceLocation
  /// What is wrong: what was expected and what was found.
  public var message: String

  package init(_ kind: Kind, at location: SourceLocation, _ message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): \(message)" }

  /// The category of a problem, for tools and tests; ``message`` has the details.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A file could not be read, or the application manifest is missing.
    case unreadable
    /// Not well-formed JSON or property list, or nested too deeply.
    case syntax
    /// The same key twice in one object.
    case duplicateKey
    /// A key the format does not define (usually a typo).
    case unknownKey
    /// A required key is absent.
    case missingKey
    /// A value of the wrong JSON type.
    case typeMismatch
    /// A value of the right type that is not allowed (bad enum value, bad name, out of range).
    case invalidValue
    /// `schemaVersion` is not one this build reads.
    case unsupportedSchemaVersion
    /// Two modules, targets, actions, parameters or services with the same name, or both
    /// `app.json` and `app.plist` in one manifests directory.
    case duplicateName
    /// A dependency on a module that is not declared.
    case unknownDependency
    /// A dependency on a module that is declared but disabled.
    case disabledDependency
    /// A module that depends on itself.
    case selfDependency
    /// Modules that depend on each other in a cycle.
    case dependencyCycle
    /// A type name the catalog cannot find.
    case typeNotFound
    /// A module type that does not conform to ``Module``.
    case notAModule
    /// A file larger, deeper or with more values than ``ManifestLimits`` allow.
    case limitExceeded
    /// A `modules` path that leaves the manifests directory (`..`, absolute, or a symbolic
    /// link), which the application manifest does not allow.
    case outsideDirectory
    /// A service implementation that is not `Injectable`, a target type that is not a `Target`,
    /// or a declared action its target does not implement (checked by the kernel's `BootCheck`).
    case notLinkable
    /// A lazy module that nothing could wake: it declares no services, targets or activation
    /// events, and no enabled module depends on it.
    case noActivationTrigger
  }
}
