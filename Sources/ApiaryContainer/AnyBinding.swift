import ApiarySupport

/// The type-erased part of a binding: its key, scope, owner and how it was declared.
///
/// `@unchecked Sendable`: the only mutable state lives in ``Binding`` (its caches and hooks) and
/// is read and written only while holding `family.lock`; everything declared here is immutable.
@usableFromInline
class AnyBinding: @unchecked Sendable {
  @usableFromInline let key: BindingKey
  @usableFromInline let serviceKey: ServiceKey
  @usableFromInline let scope: Scope
  let owner: String?
  let kind: BindingInfo.Kind
  let isEager: Bool
  let source: SourceLocation?
  let order: Int
  /// Set when registered as one of several ranked providers of the key.
  let rank: Int?
  @usableFromInline let family: Family

  init(
    key: BindingKey, serviceKey: ServiceKey, scope: Scope, owner: String?, kind: BindingInfo.Kind,
    isEager: Bool, source: SourceLocation?, order: Int, rank: Int?, family: Family
  ) {
    self.key = key
    self.serviceKey = serviceKey
    self.scope = scope
    self.owner = owner
    self.kind = kind
    self.isEager = isEager
    self.source = source
    self.order = order
    self.rank = rank
    self.family = family
  }

  /// Whether a shared instance exists. The caller holds `family.lock`.
  var isBuilt: Bool { false }

  /// This binding for a derived container: itself when it holds a built singleton (so it is
  /// shared), otherwise a fresh copy with an empty cache. The caller holds `family.lock`.
  func copyForDerivation() -> AnyBinding { self }

  /// Takes the built singleton or weak instance out, for the caller to release outside the
  /// lock; a bound instance stays. The caller holds `family.lock`.
  func takeBuilt() -> Any? { nil }

  /// Builds the instance unless it exists (eager singletons at boot).
  func buildEagerly(in registry: Registry) throws(ContainerError) {}

  /// What ``Container/bindings`` reports. The caller must not hold `family.lock`.
  func info(built: Bool) -> BindingInfo {
    BindingInfo(
      key: serviceKey, scope: scope, owner: owner, kind: kind, isEager: isEager, isBuilt: built,
      source: source, rank: rank)
  }
}
