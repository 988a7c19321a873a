import Foundation

/// `apiary-bench [--smoke] [--only SECTION] [--modules 10,100]`: runs every case (or the suite
/// whose name starts with SECTION; ``BenchOptions`` has the list and the usage) and prints a
/// Markdown table of results and budgets; progress goes to standard error. Exits with status 1
/// when a case could not run (CI runs `--smoke`), never because of a timing, and with 2 for a
/// command line it refuses.
///
/// ```
/// swift run -c release --package-path Benchmarks apiary-bench
/// swift run -c release --package-path Benchmarks apiary-bench --smoke   # CI: every case once
/// ```
@main
struct BenchCommand {
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == "--child" { exit(await PluginChild.run(Array(arguments.dropFirst()))) }
    if arguments.first == ProcessSuite.childFlag, let directory = arguments.dropFirst().first {
      exit(await ProcessSuite.serveChild(directory: directory))
    }
    let options: BenchOptions
    do {
      options = try BenchOptions(Array(arguments))
    } catch {
      printError("error: \(error)\n\n\(BenchOptions.usage)")
      exit(2)
    }
    if options.help {
      print(BenchOptions.usage)
      return
    }
    let harness = options.smoke ? Harness.smoke : Harness.standard
    let sizes = options.moduleCounts
    func selected(_ section: String) -> Bool { options.selects(section) }

    var report = Report()
    if selected("container") { ContainerSuite.run(harness, into: &report) }
    if selected("mediator") { await MediatorSuite.run(harness, into: &report) }
    if selected("lifecycle") {
      await LifecycleSuite.run(harness, sizes: sizes ?? LifecycleSuite.sizes, into: &report)
    }
    if selected("events") { await EventSuite.run(harness, into: &report) }
    if selected("plugins") { await PluginSuite.run(harness, into: &report) }
    if selected("lazy") { await LazySuite.run(harness, into: &report) }
    if selected("process") { await ProcessSuite.run(harness, into: &report) }
    for budget in Budget.judge(report) { report.add(budget) }
    print(report.markdown())
    let broken = report.rows.filter { $0.note != nil }
    for row in broken {
      printError("case could not run: \(row.section) / \(row.name): \(row.note ?? "")")
    }
    if !broken.isEmpty { exit(1) }
  }
}
