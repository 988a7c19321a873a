/// A candidate that passed the gate, with its descriptor and the contract libraries the loader
/// will open with it. Once the host has opened it, a later check takes it as known
/// (``LoadGate/check(_:host:opened:)``) instead of reading its files again.
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
    /// The file the gate read.
    let identity: FileIdentity
    /// The names the loader knows it by (`DT_NEEDED` names, its soname).
    let names: [String]
  }

  /// The candidate as the manifest named it.
  public let candidate: PluginCandidate
  /// The descriptor read from its library.
  public let descriptor: PluginDescriptor
  /// The contract libraries it needs, in the order the loader opens them.
  public let contracts: [Contract]
  /// The library file as the gate read it.
  public let identity: FileIdentity
  /// The names the loader knows it by (its soname).
  let names: [String]
}
