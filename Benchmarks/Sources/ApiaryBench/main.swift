/// `apiary-bench [--smoke] [--only SECTION]`: runs every case and prints a Markdown table.
let arguments = CommandLine.arguments.dropFirst()
let harness = arguments.contains("--smoke") ? Harness.smoke : Harness.standard
let only = arguments.firstIndex(of: "--only").flatMap { index in
  arguments.index(after: index) < arguments.endIndex ? arguments[arguments.index(after: index)] : nil
}

func selected(_ section: String) -> Bool { only.map { section.hasPrefix($0) } ?? true }

var report = Report()
if selected("container") { ContainerSuite.run(harness, into: &report) }
print(report.markdown())
