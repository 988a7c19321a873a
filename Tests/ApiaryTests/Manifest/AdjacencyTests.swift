import Testing

@testable import ApiaryManifest

@Suite struct AdjacencyTests {
  @Test func successorsKeepTheOrderOfTheirEdges() {
    let graph = Adjacency(count: 4, edges: [(0, 2), (3, 0), (0, 1), (2, 3), (0, 2)])
    #expect(graph.count == 4)
    #expect(Array(graph[0]) == [2, 1, 2])
    #expect(Array(graph[1]) == [])
    #expect(Array(graph[2]) == [3])
    #expect(Array(graph[3]) == [0])
  }

  @Test func listsPerNodeBecomeOneArray() {
    let graph = Adjacency([[1, 2], [], [0]])
    #expect((0..<graph.count).map { Array(graph[$0]) } == [[1, 2], [], [0]])
    #expect(Adjacency([]).count == 0)
  }

  @Test func edgePositionsLeadToTheSuccessors() {
    let graph = Adjacency([[1, 2], [], [0]])
    #expect(
      (0..<graph.count).map { graph.edges(of: $0).map(graph.target(at:)) } == [[1, 2], [], [0]])
    #expect(graph.edges(of: 1).isEmpty)
  }
}
