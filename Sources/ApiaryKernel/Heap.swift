/// A binary min-heap, for ordering ready modules in O(log n).
struct Heap<Element: Comparable> {
  private var items: [Element] = []

  var isEmpty: Bool { items.isEmpty }

  mutating func push(_ element: Element) {
    items.append(element)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child] < items[parent] else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Element? {
    guard let first = items.first else { return nil }
    let last = items.removeLast()
    guard !items.isEmpty else { return first }
    items[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < items.count, items[left] < items[smallest] { smallest = left }
      if right < items.count, items[right] < items[smallest] { smallest = right }
      guard smallest != parent else { return first }
      items.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
