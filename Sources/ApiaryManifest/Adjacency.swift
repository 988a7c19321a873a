/// A directed graph over the nodes `0..<count`, each node's successors kept together in one
/// array rather than an array per node: thousands of modules' dependencies cost two
/// allocations, not one per module.
///
/// ```swift
/// let graph = Adjacency(count: 3, edges: [(from: 0, to: 2), (from: 2, to: 1), (from: 0, to: 1)])
/// graph[0]  // [2, 1]
/// ```
package struct Adjacency: Sendable {
  /// Node `i`'s successors are `targets[starts[i]..<starts[i + 1]]`.
  private var starts: [Int]
  private var targets: [Int]

  /// The graph whose node `i` has the successors `successors[i]`, in that order.
  package init(_ successors: [[Int]]) {
    self.init(
      count: successors.count,
      edges: successors.indices.flatMap { from in successors[from].map { (from, $0) } })
  }

  /// The graph of `edges` over `count` nodes; each node's successors keep the order of `edges`.
  package init(count: Int, edges: [(from: Int, to: Int)]) {
    starts = [Int](repeating: 0, count: count + 1)
    for edge in edges { starts[edge.from + 1] += 1 }
    for node in 0..<count { starts[node + 1] += starts[node] }
    targets = [Int](repeating: 0, count: edges.count)
    var next = starts
    for edge in edges {
      targets[next[edge.from]] = edge.to
      next[edge.from] += 1
    }
  }

  /// The number of nodes.
  package var count: Int { starts.count - 1 }

  /// The successors of `node`, in the order their edges were given.
  package subscript(node: Int) -> ArraySlice<Int> { targets[starts[node]..<starts[node + 1]] }

  /// The positions of `node`'s edges, for ``target(at:)``: a walk by position makes no slice,
  /// which costs a reference count a step.
  package func edges(of node: Int) -> Range<Int> { starts[node]..<starts[node + 1] }

  /// The node the edge at `position` (one of ``edges(of:)``) leads to.
  package func target(at position: Int) -> Int { targets[position] }
}
