// Stand-in for branch `gate`; see README.md here. Checks a subset of §4: file, ELF, section,
// descriptor, abi/compiler/triple, versions, sha256, entry symbol, embedded copies of Apiary,
// contract libraries through DT_NEEDED, duplicate types, requires ranges. No cycle search.
import Foundation

public struct HostFacts: Sendable {
  public var apiaryVersion: SemanticVersion
  public var abiHash: String
  public var compiler: String
  public var triple: String
  public var abiModules: [String]
  public init(
    apiaryVersion: SemanticVersion, abiHash: String, compiler: String, triple: String,
    abiModules: [String]
  ) {
    (self.apiaryVersion, self.abiHash, self.compiler) = (apiaryVersion, abiHash, compiler)
    (self.triple, self.abiModules) = (triple, abiModules)
  }
}

public struct PluginCandidate: Sendable {
  public var name: String?
  public var version: String?
  public var library: String
  public var sha256: String?
  public var origin: String
  public init(name: String?, version: String?, library: String, sha256: String?, origin: String) {
    (self.name, self.version, self.library, self.sha256, self.origin) =
      (name, version, library, sha256, origin)
  }
}

public struct PluginProblem: Error, Sendable, CustomStringConvertible {
  public var file: String
  public var field: String
  public var expected: String?
  public var found: String?
  public var message: String
  public var origin: String?
  public init(
    file: String, field: String, expected: String? = nil, found: String? = nil, message: String,
    origin: String? = nil
  ) {
    (self.file, self.field, self.expected, self.found) = (file, field, expected, found)
    (self.message, self.origin) = (message, origin)
  }
  public var description: String {
    var text = "\(file): \(field): \(message)"
    if let expected { text += "; expected \(expected)" }
    if let found { text += ", found \(found)" }
    if let origin { text += " (named at \(origin))" }
    return text
  }
}

public struct GatedPlugin: Sendable {
  public struct Contract: Sendable {
    public var name: String
    public var path: String
    public var descriptor: PluginDescriptor
  }
  public var candidate: PluginCandidate
  public var descriptor: PluginDescriptor
  public var contracts: [Contract]
}

public enum LoadGate {
  public static let entrySymbol = "apiary_plugin_entry"

  public static func check(_ candidates: [PluginCandidate], host: HostFacts)
    -> (plugins: [GatedPlugin], problems: [PluginProblem])
  {
    var plugins: [GatedPlugin] = []
    var problems: [PluginProblem] = []
    var exporters: [String: String] = [:]
    for candidate in candidates {
      var local: [PluginProblem] = []
      func problem(_ field: String, _ expected: String?, _ found: String?, _ message: String) {
        local.append(
          PluginProblem(
            file: candidate.library, field: field, expected: expected, found: found,
            message: message, origin: candidate.origin))
      }
      let image: ELFImage
      let descriptor: PluginDescriptor
      do throws(PluginProblem) {
        image = try ELFImage(contentsOf: candidate.library)
        guard image.isSharedObject else {
          throw PluginProblem(
            file: candidate.library, field: "library", expected: "a shared object (ET_DYN)",
            found: "another kind of ELF file", message: "not a shared library")
        }
        guard image.machine == hostMachine else {
          throw PluginProblem(
            file: candidate.library, field: "library", expected: "ELF machine \(hostMachine)",
            found: "\(image.machine)", message: "built for another machine")
        }
        descriptor = try read(image)
      } catch {
        var error = error
        error.origin = candidate.origin
        problems.append(error)
        continue
      }
      check(descriptor, image.path, host, problem)
      if candidate.version != descriptor.version.description {
        problem(
          "version", descriptor.version.description, candidate.version ?? "none",
          "manifest version differs from the descriptor's")
      }
      if let name = candidate.name, name != descriptor.plugin {
        problem("plugin", descriptor.plugin, name, "manifest names another plugin")
      }
      if let expected = candidate.sha256?.lowercased(),
        let data = FileManager.default.contents(atPath: candidate.library)
      {
        let found = SHA256.hex(of: [UInt8](data))
        if found != expected { problem("sha256", expected, found, "the library's SHA-256 differs") }
      }
      if !descriptor.modules.isEmpty, !image.definedSymbols.contains("apiary_plugin_entry") {
        problem("apiary_plugin_entry", "a defined symbol", "none", "no entry symbol in .dynsym")
      }
      let own = "$s\(descriptor.plugin.utf8.count)\(descriptor.plugin)"
      for module in host.abiModules {
        let prefix = "$s\(module.utf8.count)\(module)"
        if prefix != own, image.definedSymbols.contains(where: { $0.hasPrefix(prefix) }) {
          problem(
            "library", "\(module) linked from libApiary.so", "its own copy of \(module)",
            "the plugin embeds a copy of \(module) (split type identity)")
        }
      }
      var contracts: [GatedPlugin.Contract] = []
      let origin = (candidate.library as NSString).deletingLastPathComponent
      for needed in image.neededLibraries {
        for directory in image.runpath {
          let path = directory.replacingOccurrences(of: "$ORIGIN", with: origin) + "/" + needed
          guard FileManager.default.fileExists(atPath: path) else { continue }
          if let contract = try? ELFImage(contentsOf: path),
            contract.section(named: "apiary_plugin") != nil
          {
            do throws(PluginProblem) {
              let described = try read(contract)
              check(described, path, host, problem)
              contracts.append(.init(name: described.plugin, path: path, descriptor: described))
            } catch {
              local.append(error)
            }
          }
          break
        }
      }
      for type in descriptor.modules + descriptor.targets {
        if let first = exporters[type] {
          problem("module", nil, type, "type \(type) is exported by \(first) too")
        } else {
          exporters[type] = descriptor.plugin
        }
      }
      problems += local
      if local.isEmpty {
        plugins.append(
          GatedPlugin(candidate: candidate, descriptor: descriptor, contracts: contracts))
      }
    }
    var versions: [String: String] = ["apiary": host.apiaryVersion.description]
    for plugin in plugins {
      versions[plugin.descriptor.plugin] = plugin.descriptor.version.description
      for contract in plugin.contracts {
        versions[contract.name] = contract.descriptor.version.description
      }
    }
    var accepted: [GatedPlugin] = []
    for plugin in plugins {
      var ok = true
      for (name, range) in plugin.descriptor.requires {
        guard let text = versions[name], let version = try? SemanticVersion(text),
          range.contains(version)
        else {
          problems.append(
            PluginProblem(
              file: plugin.candidate.library, field: "requires \(name)",
              expected: range.description,
              found: versions[name] ?? "no such plugin", message: "unmet requirement",
              origin: plugin.candidate.origin))
          ok = false
          continue
        }
      }
      if ok { accepted.append(plugin) }
    }
    return (accepted, problems)
  }

  static let hostMachine = 62  // EM_X86_64; the real gate reads the host's own image.

  static func read(_ image: ELFImage) throws(PluginProblem) -> PluginDescriptor {
    guard let bytes = image.section(named: "apiary_plugin") else {
      throw PluginProblem(
        file: image.path, field: "apiary_plugin", expected: "a descriptor section", found: "none",
        message: "not an Apiary plugin (no descriptor)")
    }
    let (descriptor, problems) = PluginDescriptor.parse(bytes, file: image.path)
    guard let descriptor else {
      throw problems.first
        ?? PluginProblem(file: image.path, field: "apiary_plugin", message: "malformed descriptor")
    }
    return descriptor
  }

  static func check(
    _ descriptor: PluginDescriptor, _ file: String, _ host: HostFacts,
    _ problem: (String, String?, String?, String) -> Void
  ) {
    if descriptor.abi != host.abiHash {
      problem(
        "abi", host.abiHash, descriptor.abi,
        "\(file) was compiled against another Apiary ABI; rebuild it")
    }
    if descriptor.compiler != host.compiler {
      problem(
        "compiler", host.compiler, descriptor.compiler, "\(file) was built by another compiler")
    }
    if descriptor.triple != host.triple {
      problem("triple", host.triple, descriptor.triple, "\(file) was built for another target")
    }
  }
}
