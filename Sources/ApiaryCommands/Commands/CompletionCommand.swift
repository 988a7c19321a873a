import Apiary
import ApiaryTooling

/// `apiary completion bash|zsh|modules|urls [DIR]`: shell completion scripts, and the words they
/// offer that come from the manifests.
enum CompletionCommand: HostCommand {
  static let name = "completion"
  static let summary = "Print a bash or zsh completion script, or module names and call URLs"
  static let usage = """
    USAGE: apiary completion bash|zsh|modules|urls [DIR]

    bash, zsh   print a completion script for commands, options, option values, manifest
                directories and call URLs. Load it with: source <(apiary completion bash)
    modules     print the enabled module names in DIR (default \(Host.defaultManifests)), one a line
                (the names ':remove MODULE' takes in 'apiary run'; for line editors:
                rlwrap -f <(apiary completion modules) apiary run)
    urls        print scheme://target/action for every remote action in DIR, one a line
                (what the scripts offer after 'apiary call')

    OPTIONS:
      --manifests DIR   the same as DIR
    """
  static let positionals = 1

  enum Kind: String, CaseIterable { case bash, zsh, modules, urls }

  static func run(_ arguments: Arguments) async -> Int32 {
    guard let word = arguments.positionals.first, let kind = Kind(rawValue: word) else {
      let found = arguments.positionals.first.map { "'\($0)'" } ?? "nothing"
      return Host.usageError(
        UsageError("expected bash, zsh, modules or urls, found \(found)"), usage: usage)
    }
    switch kind {
    case .bash: Output.out(lines: BashCompletion.script(spec).lines)
    case .zsh: Output.out(lines: ZshCompletion.script(spec).lines)
    case .modules, .urls:
      let set = ManifestLoader().load(directory: arguments.manifests)
      guard let application = set.application else {
        // On standard error, which the completion scripts discard and a person reads.
        for problem in set.problems { StandardError.print("\(problem)") }
        return ExitStatus.failure
      }
      let modules = set.enabledModules
      let words =
        kind == .modules
        ? modules.map(\.name)
        : modules.flatMap(\.targets).flatMap { target in
          target.actions.filter(\.isRemote).map {
            "\(application.scheme)://\(target.name)/\($0.name)"
          }
        }
      if !words.isEmpty { Output.out(lines: words) }
    }
    return ExitStatus.success
  }

  /// The host's commands as completion sees them, read from each command's own declaration
  /// and usage text (the option summaries), so the scripts cannot drift from the host.
  static var spec: CompletionSpec {
    var commands: [CompletionSpec.Command] = []
    for command in Host.commands {
      commands.append(entry(command))
    }
    commands.append(
      CompletionSpec.Command(
        name: "help", summary: "Print the usage of apiary or of a command",
        positionals: [.words(Host.commands.map { $0.name })], options: []))
    return CompletionSpec(program: "apiary", commands: commands)
  }

  private static func entry(_ command: any HostCommand.Type) -> CompletionSpec.Command {
    let names = command.flags.union(command.options).union(Arguments.manifestsOptions)
    var options: [CompletionSpec.Option] = []
    for name in names.sorted() {
      let value = command.flags.contains(name) ? .none : value(of: name, command: command.name)
      options.append(
        CompletionSpec.Option(
          name: name, summary: summary(of: name, in: command.usage), value: value))
    }
    return CompletionSpec.Command(
      name: command.name, summary: command.summary,
      positionals: positionalValues[command.name] ?? [.directory], options: options)
  }

  /// Positionals other than a lone DIR.
  private static let positionalValues: [String: [CompletionSpec.Value]] = [
    CallCommand.name: [.urls, .directory],
    name: [.words(Kind.allCases.map(\.rawValue)), .directory],
  ]

  private static func value(of option: String, command: String) -> CompletionSpec.Value {
    switch option {
    case "--manifests", "--calls": .directory
    case "--output": .file
    case OutputFormat.option:
      .words(
        command == GraphCommand.name
          ? GraphCommand.Format.allCases.map(\.rawValue) : OutputFormat.allCases.map(\.rawValue))
    default: .text
    }
  }

  /// The text after `--option ARG` on the option's line in `usage`.
  private static func summary(of option: String, in usage: String) -> String {
    for line in usage.split(separator: "\n").map(String.init) {
      let words = line.split(separator: " ")
      guard words.first.map(String.init) == option, let gap = line.firstRange(of: "   ") else {
        continue
      }
      return String(line[gap.upperBound...]).trimmingWhitespace()
    }
    return option
  }
}
