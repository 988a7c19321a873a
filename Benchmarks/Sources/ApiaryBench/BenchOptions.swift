/// `apiary-bench`'s command line: `--smoke`, `--only SECTION`, `--modules N,N,…` and `--help`.
/// Anything else is refused, so a mistyped option never starts a run of several minutes.
///
/// ```swift
/// try BenchOptions(["--only", "lazy"]).selects("lazy")  // true
/// try BenchOptions(["--only", "plugin"]).selects("plugins")  // true: a prefix
/// try BenchOptions(["--only", "disk"])  // throws: no suite starts with 'disk'
/// ```
struct BenchOptions {
  /// The suites, in the order they run.
  static let suites = [
    "container", "mediator", "lifecycle", "events", "plugins", "lazy", "process",
  ]

  static let usage = """
    USAGE: apiary-bench [--smoke] [--only SECTION] [--modules N,N,…]

    Runs the benchmark suites and prints a Markdown table of results and budgets on standard
    output; progress goes to standard error. Exits with 1 when a case could not run (never
    because of a timing), with 2 for a command line it does not understand.

    OPTIONS:
      --smoke            every case once (CI), a few seconds
      --only SECTION     only the suite whose name starts with SECTION
                         (\(suites.joined(separator: ", ")))
      --modules N,N,…    module counts for the lifecycle suite (default 10,100,1000,10000)
      -h, --help         print this and exit
    """

  /// Why the command line was refused.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  var help = false
  var smoke = false
  var only: String?
  var moduleCounts: [Int]?

  init(_ arguments: [String]) throws(Refusal) {
    var remaining = arguments[...]
    func value(of option: String) throws(Refusal) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw Refusal(description: "\(option) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help": help = true
      case "--smoke": smoke = true
      case "--only":
        let section = try value(of: argument)
        guard Self.suites.contains(where: { $0.hasPrefix(section) }), !section.isEmpty else {
          throw Refusal(
            description: "--only '\(section)' matches no suite; the suites are "
              + Self.suites.joined(separator: ", "))
        }
        only = section
      case "--modules":
        let text = try value(of: argument)
        let counts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) > 0 }) else {
          throw Refusal(
            description: "--modules expects module counts above 0 separated by commas, "
              + "found '\(text)'")
        }
        moduleCounts = counts.compactMap { $0 }
      default:
        throw Refusal(description: "unknown argument '\(argument)'")
      }
    }
  }

  /// Whether the suite `section` runs.
  func selects(_ section: String) -> Bool { only.map { section.hasPrefix($0) } ?? true }
}
