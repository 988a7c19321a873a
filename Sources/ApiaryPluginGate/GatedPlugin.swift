/// A candidate that passed the gate, with its descriptor and the contract libraries the loader
/// will open with it.
///
/// ```swift
/// let (plugins, problems) = LoadGate.check(candidates, host: host)
/// for plugin in plugins where problems.isEmpty {
///   print(plugin.descriptor.plugin, plugin.contracts.map(\.name))
/// }
/// ```
public struct GatedPlugin: Sendable, Hashable {
  /// A contract library a plugin needs (directly or through another contract library).
  public struct Contract: Sendable, Hashable {
    /// Its name (the descriptor's `plugin`: its Swift module name).
    public let name: String
    /// The file the dynamic loader will use.
    public let path: String
    /// Its descriptor.
    public let descriptor: PluginDescriptor
  }

  /// The candidate as the manifest named it.
  public let candidate: PluginCandidate
  /// The descriptor read from its library.
  public let descriptor: PluginDescriptor
  /// The contract libraries it needs, in the order the loader opens them.
  public let contracts: [Contract]
}
