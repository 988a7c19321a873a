/// `apiary-bench [--smoke] [--only SECTION]`: runs every case (or those whose section starts with
/// SECTION) and prints a Markdown table of results and budgets; progress goes to standard error.
///
/// ```
/// swift run -c release --package-path Benchmarks apiary-bench
/// swift run -c release --package-path Benchmarks apiary-bench --smoke   # CI: every case once
/// ```
@main
struct BenchCommand {
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst()
    let harness = arguments.contains("--smoke") ? Harness.smoke : Harness.standard
    let only = arguments.firstIndex(of: "--only").flatMap { index in
      arguments.index(after: index) < arguments.endIndex
        ? arguments[arguments.index(after: index)] : nil
    }
    func selected(_ section: String) -> Bool { only.map { section.hasPrefix($0) } ?? true }

    var report = Report()
    if selected("container") { ContainerSuite.run(harness, into: &report) }
    if selected("mediator") { await MediatorSuite.run(harness, into: &report) }
    if selected("lifecycle") { await LifecycleSuite.run(harness, into: &report) }
    if selected("events") { await EventSuite.run(harness, into: &report) }
    for budget in Budget.judge(report) { report.add(budget) }
    print(report.markdown())
  }
}
