import ApiarySupport

/// `apiary plugin`: look at plugin libraries and start new plugin packages.
enum PluginCommand: HostCommand {
  static let name = "plugin"
  static let summary = "Inspect a plugin library, scaffold a plugin package, show host facts"
  static let usage = """
    USAGE: apiary plugin inspect FILE
           apiary plugin new NAME [DIR] [--apiary PATH] [--uses KIT | --contract]
           apiary plugin host

    inspect   print FILE's descriptor (the apiary_plugin section) and ELF facts: the
              processor, needed libraries and whether the entry symbol exists; and each reason
              this host's load gate would refuse it, as a '# problem:' line (exit status 1).
              The file is read, never loaded.
    new       write a plugin package NAME in DIR (default ./NAME): a module, a target with one
              remote action, its descriptor and its manifest; it builds with 'swift build -c
              release' (its manifest names the release build) and loads as it is; it depends on
              the Apiary package at PATH (default: the one this host was built from);
              with --uses KIT it also depends on the contract library package in directory
              KIT, requires its version and uses its Greeting; with --contract it is a
              contract library package instead: types shared by plugins, loaded once, no
              module and no manifest
    host      print what this host was built with (Apiary version, ABI hash, compiler, triple,
              configuration); a plugin's descriptor must match, except the configuration
    """
  static let positionals = 3
  static let readsManifests = false
  static let flags: Set<String> = ["--contract"]
  static let options: Set<String> = ["--apiary", "--uses"]

  static func run(_ arguments: Arguments) async -> Int32 {
    let words = arguments.positionals
    switch (words.first, words.count) {
    case ("inspect", 2):
      switch PluginGate.inspect(words[1]) {
      case .success(let (text, isSound)):
        Output.out(lines: text.split(separator: "\n").map(String.init))
        return isSound ? ExitStatus.success : ExitStatus.failure
      case .failure(let problem):
        StandardError.print("error: \(problem)")
        return ExitStatus.failure
      }
    case ("new", 2...3):
      let kind: PluginScaffold.Kind
      switch (arguments.flags.contains("--contract"), arguments.options["--uses"]) {
      case (true, nil): kind = .contract
      case (true, _?):
        return Host.usageError(
          UsageError("--contract and --uses: a contract library uses no other"), usage: usage)
      case (false, nil): kind = .plugin(uses: nil)
      case (false, let kit?):
        do throws(UsageError) {
          let contract = try ContractScaffold.package(at: kit)
          let directory = words.count == 3 ? words[2] : words[1]
          if let clash = ContractScaffold.clash(plugin: words[1], in: directory, with: contract) {
            throw UsageError(clash)
          }
          kind = .plugin(uses: contract)
        } catch {
          return Host.usageError(error, usage: usage)
        }
      }
      return PluginScaffold.write(
        name: words[1], to: words.count == 3 ? words[2] : words[1],
        apiary: arguments.options["--apiary"], kind: kind)
    case ("host", 1):
      Output.out(lines: PluginGate.hostDescription.split(separator: "\n").map(String.init))
      return ExitStatus.success
    default:
      return Host.usageError(UsageError(misuse(words)), usage: usage)
    }
  }

  /// What is wrong with `words`, which no subcommand accepts.
  private static func misuse(_ words: [String]) -> String {
    switch (words.first, words.count) {
    case (nil, _): "missing subcommand"
    case ("inspect", 1): "missing FILE"
    case ("new", _): "missing NAME"
    case ("inspect", _): "unexpected argument '\(words[2])'"
    case ("host", _): "unexpected argument '\(words[1])'"
    case (let word?, _): "unknown subcommand '\(word)' (expected inspect, new or host)"
    }
  }
}
