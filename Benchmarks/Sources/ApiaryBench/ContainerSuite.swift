/// Container cases at 10 and 10,000 bindings, and the singleton resolve from two threads;
/// Apiary against Swinject and the dictionary-and-lock baseline.
enum ContainerSuite {
  static var operations: [(name: String, run: KeyPath<ContainerCases, (Int) -> Void>)] {
    [
      ("singleton resolve", \.singleton),
      ("transient, two deps", \.transient),
      ("named resolve", \.named),
      ("resolve with argument", \.argument),
      ("failed resolve", \.failed),
    ]
  }

  static func run(_ harness: Harness, into report: inout Report) {
    for bindings in [10, 10_000] {
      let section = "container, \(bindings) bindings"
      let dictionary = ContainerCases.dictionary(bindings: bindings)
      let swinject = ContainerCases.swinject(bindings: bindings)
      let apiary = ContainerCases.apiary(bindings: bindings)
      for (name, operation) in operations {
        var bodies = [swinject[keyPath: operation], dictionary[keyPath: operation]]
        if let cases = apiary.cases { bodies.append(cases[keyPath: operation]) }
        let measured = harness.measureInterleaved(bodies)
        let note = apiary.note ?? problems(apiary.cases, swinject, dictionary)
        for (index, peerName) in ["Swinject 2.10", "dictionary+lock"].enumerated() {
          report.add(
            Row(
              section: section, name: name, apiary: measured.count > 2 ? measured[2] : nil,
              peerName: peerName, peer: measured[index], note: note))
        }
      }
    }
    let threads = 2
    let section = "container, \(threads) threads"
    let dictionary = ContainerCases.dictionary(bindings: 10)
    let swinject = ContainerCases.swinject(bindings: 10)
    let apiary = ContainerCases.apiary(bindings: 10)
    var bodies = [swinject.concurrentSingleton, dictionary.concurrentSingleton]
    if let cases = apiary.cases { bodies.append(cases.concurrentSingleton) }
    let measured = harness.measureConcurrently(threads: threads, bodies)
    for (index, peerName) in ["Swinject 2.10, synchronized", "dictionary+lock"].enumerated() {
      report.add(
        Row(
          section: section, name: "singleton resolve, per thread",
          apiary: measured.count > 2 ? measured[2] : nil, peerName: peerName,
          peer: measured[index], note: apiary.note))
    }
  }

  private static func problems(_ cases: ContainerCases?...) -> String? {
    let found = cases.compactMap { $0 }.flatMap(\.problems)
    return found.isEmpty ? nil : found.joined(separator: "; ")
  }
}
