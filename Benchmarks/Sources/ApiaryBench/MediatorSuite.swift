import Apiary
import Foundation

/// Local perform, perform through an interceptor and `open(url)` with three parameters, against
/// calling the same closure through a dictionary of dictionaries (and, for URLs, parsing the URL
/// with Foundation first).
enum MediatorSuite {
  typealias Closure = @Sendable ([String: any Sendable]) throws -> (any Sendable)?

  static let url = "bench://math/sum3?a=1&b=2&c=3"

  static func run(_ harness: Harness, into report: inout Report) async {
    let section = "mediator"
    let kernel: Kernel
    do {
      kernel = try Kernel(
        manifestsAt: ManifestGenerator.write(
          application: "Mediator", modules: [MathTarget.module()]),
        catalog: TypeCatalog())
      try await kernel.boot()
    } catch {
      report.add(
        Row(
          section: section, name: "perform", peerName: "dictionary closure",
          note: "\(error)"))
      return
    }
    let mediator = kernel.mediator
    let params: [String: any Sendable] = ["a": 1, "b": 2]
    var problems: [String] = []
    func check(_ what: String, _ call: () throws -> (any Sendable)?, expect: Int) {
      do {
        let result = try call()
        if result as? Int != expect {
          problems.append("\(what) returned \(String(describing: result))")
        }
      } catch {
        problems.append("\(what) threw \(error)")
      }
    }
    check(
      "perform",
      { try mediator.perform(target: "math", action: "add", params: params, cache: true) },
      expect: 3)
    check("open", { try mediator.open(url, cache: true) }, expect: 6)
    let note = problems.isEmpty ? nil : problems.joined(separator: "; ")

    let measured = harness.measureInterleaved([
      directCall(),
      parsedURLCall(),
      { n in
        for _ in 0..<n {
          blackHole(
            try? mediator.perform(target: "math", action: "add", params: params, cache: true))
        }
      },
      { n in
        for _ in 0..<n {
          blackHole(try? mediator.perform(target: "math", action: "add", params: params))
        }
      },
      { n in for _ in 0..<n { blackHole(try? mediator.open(url, cache: true)) } },
    ])
    let (direct, parsed, perform, uncached, opened) = (
      measured[0], measured[1], measured[2], measured[3], measured[4]
    )
    report.add(
      Row(
        section: section, name: "perform, cached target", apiary: perform,
        peerName: "dictionary closure", peer: direct, note: note))
    report.add(
      Row(
        section: section, name: "perform, new target each call", apiary: uncached,
        peerName: "dictionary closure", peer: direct, note: note))
    report.add(
      Row(
        section: section, name: "open(url), three params", apiary: opened,
        peerName: "dictionary closure", peer: direct, note: note))
    report.add(
      Row(
        section: section, name: "open(url), three params", apiary: opened,
        peerName: "URLComponents + dictionary closure", peer: parsed, note: note))
    let token = mediator.intercept(
      .action(target: "math", action: "add"),
      Interceptor(before: { _ in .proceed }, after: { _, result in blackHole(result) }))
    let intercepted = harness.measure { n in
      for _ in 0..<n {
        blackHole(
          try? mediator.perform(target: "math", action: "add", params: params, cache: true))
      }
    }
    mediator.removeInterceptor(token)
    report.add(
      Row(
        section: section, name: "perform, interceptor installed", apiary: intercepted,
        peerName: "perform, none installed", peer: perform, note: note))
    await kernel.shutdown()
  }

  private static func table() -> [String: [String: Closure]] {
    [
      "math": [
        "add": { params in
          guard let a = params["a"] as? Int, let b = params["b"] as? Int else { return nil }
          return a + b
        },
        "sum3": { params in
          guard let a = params["a"] as? Int, let b = params["b"] as? Int,
            let c = params["c"] as? Int
          else { return nil }
          return a + b + c
        },
      ]
    ]
  }

  /// `table[target][action](params)`: the least a call by name can cost.
  private static func directCall() -> (Int) -> Void {
    let table = table()
    let params: [String: any Sendable] = ["a": 1, "b": 2]
    let target = "math"
    let action = "add"
    return { n in
      for _ in 0..<n { blackHole(try? table[target]?[action]?(params)) }
    }
  }

  /// The URL parsed with Foundation, its query converted to integers, then the dictionary call.
  private static func parsedURLCall() -> (Int) -> Void {
    let table = table()
    return { n in
      for _ in 0..<n {
        guard let components = URLComponents(string: url), let target = components.host else {
          continue
        }
        var params: [String: any Sendable] = [:]
        for item in components.queryItems ?? [] {
          params[item.name] = item.value.flatMap { Int($0) }
        }
        let action = String(components.path.dropFirst())
        blackHole(try? table[target]?[action]?(params))
      }
    }
  }
}
