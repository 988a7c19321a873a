/// What shell completion knows about a program: its commands, their options and what each
/// option's value and each positional argument is. ``BashCompletion`` and ``ZshCompletion``
/// turn it into scripts.
///
/// ```swift
/// let spec = CompletionSpec(program: "apiary", commands: [
///   .init(name: "plan", summary: "Print the boot order", positionals: [.directory],
///         options: [.init(name: "--format", summary: "text or json", value: .words(["text", "json"]))])
/// ])
/// print(BashCompletion.script(spec))
/// ```
package struct CompletionSpec: Sendable {
  /// What a word is, so the shell offers the right candidates.
  package enum Value: Sendable, Hashable {
    /// A flag takes no value.
    case none
    /// Any word; nothing is offered.
    case text
    case directory
    case file
    case words([String])
    /// `scheme://target/action` of the remote actions in the manifests, from
    /// `PROGRAM completion urls DIR`.
    case urls
  }

  package struct Option: Sendable, Hashable {
    package let name: String
    package let summary: String
    package let value: Value

    package init(name: String, summary: String, value: Value) {
      self.name = name
      self.summary = summary
      self.value = value
    }
  }

  package struct Command: Sendable, Hashable {
    package let name: String
    package let summary: String
    /// The positional arguments in order; the last one repeats.
    package let positionals: [Value]
    package let options: [Option]

    package init(name: String, summary: String, positionals: [Value], options: [Option]) {
      self.name = name
      self.summary = summary
      self.positionals = positionals
      self.options = options
    }
  }

  package let program: String
  package let commands: [Command]

  package init(program: String, commands: [Command]) {
    self.program = program
    self.commands = commands
  }

  /// `program` as a shell function name part: letters, digits and `_`.
  var identifier: String {
    String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}
