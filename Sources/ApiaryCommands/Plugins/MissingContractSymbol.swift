import ApiaryPluginGate

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why `dlopen` refused a plugin the load gate accepted, when the plugin needs a symbol of a
/// contract library that the copy this process loads lacks: the loader binds a contract
/// library's name to the copy it loaded first, whichever copy the plugin was linked against, so
/// a plugin built against another version of it fails on the first symbol that version added.
/// A `requires` line for the contract library lets the gate refuse such a plugin up front.
///
/// When the plugin's own copy of the contract library (the one its `RUNPATH` finds next to it,
/// as each plugin package builds one) declares the same version as the copy loaded, a version
/// number cannot tell them apart and a `requires` line cannot help: one of the two builds is
/// stale (the contract changed without a new version), and the message says so and which
/// plugin to rebuild:
///
/// ```text
/// …/Orders/.build/release/libOrders.so: cannot open: the plugin needs $s7ShopKit… (…) from
/// contract library 'ShopKit', which the copy this process loads lacks: '…/Inventory/.build/
/// release/libShopKit.so' (ShopKit 1.0.0, loaded first with '…/libInventory.so'); the plugin
/// was built against its own copy '…/Orders/.build/release/libShopKit.so', which also says
/// ShopKit 1.0.0 but is another build of it: the contract changed without a new version. Rebuild
/// '…/libInventory.so' against the ShopKit of today, or give the changed ShopKit a new version
/// and 'requires ShopKit RANGE' lines that tell the two apart (dlopen: …)
/// ```
///
/// ```text
/// /p/B/libUserB.so: cannot open: the plugin needs $s6TagKit8Labeler2Mp (protocol descriptor
/// for TagKit.Labeler2) from contract library 'TagKit', which the copy this process loads lacks:
/// '/p/A/libTagKit.so' (TagKit 1.0.0, loaded first with '/p/A/libUserA.so'); the plugin was
/// built against another version of TagKit. Rebuild it against TagKit 1.0.0, or add 'requires
/// TagKit RANGE' (the versions it works with) to its descriptor, so the load gate refuses it up
/// front (dlopen: /p/B/libUserB.so: undefined symbol: $s6TagKit8Labeler2Mp)
/// ```
struct MissingContractSymbol: CustomStringConvertible {
  /// The plugin that did not open.
  let plugin: String
  /// The symbol the loader could not bind.
  let symbol: String
  /// The contract library the symbol's module names, as the gate found it loaded.
  let contract: GatedPlugin.Contract
  /// The plugin opened before whose loading brought that copy in, if one did.
  let loadedWith: String?
  /// `dlerror`'s text, kept whole.
  let dlerror: String
  /// The plugin's own copy of the contract library, when its search path finds one other than
  /// the copy loaded that defines the symbol: its path and the version its descriptor declares.
  let own: (path: String, version: String)?

  /// The explanation of `dlerror` for the plugin `accepted`, or nil when the text is not an
  /// undefined Swift symbol of a contract library the process loads.
  init?(dlerror: String, accepted: GatedPlugin, opened: [GatedPlugin]) {
    // glibc: "<file>: undefined symbol: <name>", with ", version <v>" for a versioned symbol.
    guard let marker = dlerror.firstRange(of: "undefined symbol: ") else { return nil }
    let symbol = String(dlerror[marker.upperBound...].prefix { $0 != "," && $0 != " " })
    guard let module = SwiftMangling.module(of: symbol),
      let contract = accepted.contracts.first(where: { $0.name == module })
        ?? opened.lazy.flatMap(\.contracts).first(where: { $0.name == module })
    else { return nil }
    self.plugin = accepted.candidate.library
    self.symbol = symbol
    self.contract = contract
    self.loadedWith =
      opened.first { other in
        other.candidate.library != accepted.candidate.library
          && other.contracts.contains { $0.path == contract.path }
      }?.candidate.library
    self.dlerror = dlerror
    self.own = Self.ownCopy(of: contract, for: accepted.candidate.library, defining: symbol)
  }

  /// The copy of `contract` that `plugin`'s own `RUNPATH` (or `RPATH`) finds, if it is not the
  /// copy loaded, defines `symbol` and has a readable descriptor.
  static func ownCopy(
    of contract: GatedPlugin.Contract, for plugin: String, defining symbol: String
  ) -> (path: String, version: String)? {
    guard let image = try? ELFImage(contentsOf: plugin),
      let name = contract.path.split(separator: "/").last.map(String.init)
    else { return nil }
    let origin = plugin.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let directories = image.runpath.isEmpty ? image.rpath : image.runpath
    for directory in directories where !directory.isEmpty {
      let expanded = directory.replacing("${ORIGIN}", with: origin.isEmpty ? "." : origin)
        .replacing("$ORIGIN", with: origin.isEmpty ? "." : origin)
      let path = expanded + (expanded.hasSuffix("/") ? "" : "/") + name
      guard let copy = try? ELFImage(contentsOf: path) else { continue }
      guard FileIdentity(of: path) != FileIdentity(of: contract.path) else { return nil }
      guard copy.defines(symbol), let section = copy.section(named: "apiary_plugin"),
        let descriptor = PluginDescriptor.parse(section, file: path).descriptor
      else { return nil }
      return (path, "\(descriptor.version)")
    }
    return nil
  }

  var description: String {
    let name = contract.name
    let version = contract.descriptor.version
    let entity = Self.demangled(symbol).map { " (\($0))" } ?? ""
    let with = loadedWith.map { ", loaded first with '\($0)'" } ?? ""
    let missing =
      "\(plugin): cannot open: the plugin needs \(symbol)\(entity) from contract library "
      + "'\(name)', which the copy this process loads lacks: '\(contract.path)' (\(name) "
      + "\(version)\(with)); "
    if let own, own.version == "\(version)" {
      // Same version, other symbols: no range tells them apart; the older build is stale.
      let stale = loadedWith.map { "'\($0)'" } ?? "the plugin that brought '\(contract.path)' in"
      return missing
        + "the plugin was built against its own copy '\(own.path)', which also says \(name) "
        + "\(version) but is another build of it: the contract changed without a new version. "
        + "Rebuild \(stale) against the \(name) of today, or give the changed \(name) a new "
        + "version and 'requires \(name) RANGE' lines that tell the two apart (dlopen: \(dlerror))"
    }
    let builtAgainst = own.map { " (\(name) \($0.version), its own copy '\($0.path)')" } ?? ""
    return missing
      + "the plugin was built against another version of \(name)\(builtAgainst). Rebuild it "
      + "against \(name) \(version), or add 'requires \(name) RANGE' (the versions it works with) "
      + "to its descriptor, so the load gate refuses it up front (dlopen: \(dlerror))"
  }

  /// What `symbol` names, as the Swift runtime's demangler prints it: `protocol descriptor for
  /// TagKit.Labeler2`; nil when the runtime has no demangler or the symbol is not Swift's.
  static func demangled(_ symbol: String) -> String? {
    typealias Demangle =
      @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?,
        UInt32
      ) -> UnsafeMutablePointer<CChar>?
    guard let function = dlsym(nil, "swift_demangle") else { return nil }
    let demangle = unsafeBitCast(function, to: Demangle.self)
    guard let text = demangle(symbol, symbol.utf8.count, nil, nil, 0) else { return nil }
    defer { free(text) }
    return String(cString: text)
  }
}
