import ApiarySupport

/// Reads a binary property list (`bplist00`) into the tree the JSON parser builds, without
/// Foundation. Every offset, length and object reference is checked against the file before it
/// is followed; sets, data, dates and UIDs are reported as kinds manifests do not use; an object
/// that contains itself is refused; and an object referenced many times counts each time against
/// ``ManifestLimits/values``, so a few hundred bytes cannot expand to millions of values.
///
/// Layout: an 8-byte header, objects, a table of object offsets, and a 32-byte trailer giving
/// the offset and reference widths, the object count, the root object and the table's offset.
///
/// ```swift
/// let (root, problems) = BinaryPropertyList.parse(bytes, file: "modules.plist", limits: .default)
/// ```
struct BinaryPropertyList {
  static func parse(_ bytes: UnsafeRawBufferPointer, file: String, limits: ManifestLimits) -> (
    root: ManifestNode?, problems: [ManifestProblem]
  ) {
    var parser = BinaryPropertyList(bytes: bytes.bindMemory(to: UInt8.self), file: file)
    do {
      let root = try parser.parseDocument(limits)
      return (root, parser.tree.problems)
    } catch {
      return (nil, parser.tree.problems + [error])
    }
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var tree: PropertyListTree
  private var offsetSize = 0
  private var referenceSize = 0
  private var objectCount = 0
  private var offsetTable = 0
  /// Strings already decoded, by object number: a shared string is decoded once.
  private var strings: [Int: String] = [:]

  private init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
    self.bytes = bytes
    self.tree = PropertyListTree(file: file)
  }

  /// An array or dictionary being read: its object number and its references.
  private struct Walk {
    var object: Int
    var isDictionary: Bool
    /// Where its references start (keys first, for a dictionary) and how many entries it has.
    var references: Int
    var count: Int
    var next = 0
  }

  private mutating func parseDocument(_ limits: ManifestLimits) throws(ManifestProblem)
    -> ManifestNode
  {
    guard bytes.count >= 40, bytes.starts(with: "bplist00".utf8) else {
      throw tree.syntax("expected a bplist00 header and a 32-byte trailer")
    }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw tree.syntax("offset and reference sizes must be 1 to 8 bytes")
    }
    let count = unsigned(at: trailer + 8, size: 8)
    let root = unsigned(at: trailer + 16, size: 8)
    let table = unsigned(at: trailer + 24, size: 8)
    // The offset table lies between the header and the trailer, one entry per object.
    guard count >= 1, root < count, table >= 8, table <= UInt64(trailer),
      count <= (UInt64(trailer) - table) / UInt64(offsetSize)
    else {
      throw tree.syntax("object count, root object or offset table outside the file")
    }
    objectCount = Int(count)
    offsetTable = Int(table)
    var walks: [Walk] = []
    var onPath: Set<Int> = []
    var object = Int(root)
    while true {
      // Read `object`: a scalar is attached at once; a container is opened and walked.
      try tree.count(limits)
      let start = try offset(of: object)
      let marker = bytes[start]
      let kind = marker >> 4
      if kind == 0xA || kind == 0xD {
        guard onPath.insert(object).inserted else {
          throw tree.syntax("an array or dictionary contains itself")
        }
        let (entries, references) = try length(marker, at: start)
        let width = kind == 0xD ? 2 * min(entries, offsetTable) : entries
        guard references <= offsetTable, width <= (offsetTable - references) / referenceSize
        else {
          throw tree.syntax("references past the end of the objects")
        }
        try tree.open(isDictionary: kind == 0xD, limits: limits)
        walks.append(
          Walk(object: object, isDictionary: kind == 0xD, references: references, count: entries))
      } else if let root = try tree.attach(try scalar(object, at: start)) {
        return root
      }
      // Move to the next value to read, closing finished containers.
      while let walk = walks.last {
        if walk.next < walk.count {
          walks[walks.count - 1].next += 1
          if walk.isDictionary {
            try tree.setKey(try key(reference(walk.references, walk.next)))
            object = try reference(walk.references, walk.count + walk.next)
          } else {
            object = try reference(walk.references, walk.next)
          }
          break
        }
        walks.removeLast()
        onPath.remove(walk.object)
        guard let closed = try tree.close(walk.isDictionary) else {
          throw tree.syntax("unbalanced containers")
        }
        if let root = try tree.attach(closed) { return root }
      }
    }
  }

  /// A string, number, boolean or null; other kinds are reported and read as null.
  private mutating func scalar(_ object: Int, at start: Int) throws(ManifestProblem)
    -> ManifestNode
  {
    let marker = bytes[start]
    let value: ManifestNode.Value
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x00: value = .null
      case 0x08: value = .bool(false)
      case 0x09: value = .bool(true)
      default: throw tree.syntax("unknown object marker")
      }
    case 0x1:
      value = .int(try integer(marker, at: start))
    case 0x2:
      let size = 1 << Int(marker & 0xF)
      guard size == 4 || size == 8, start + 1 + size <= offsetTable else {
        throw tree.syntax("a real must be 4 or 8 bytes inside the objects")
      }
      let bits = unsigned(at: start + 1, size: size)
      let number =
        size == 4
        ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
      guard number.isFinite else { throw tree.syntax("a real must be finite") }
      value = .double(number)
    case 0x5, 0x6:
      value = .string(try string(object, at: start))
    default:
      let names: [UInt8: String] = [
        0x3: "date", 0x4: "data", 0x8: "UID", 0xB: "ordered set", 0xC: "set",
      ]
      guard let name = names[marker >> 4] else { throw tree.syntax("unknown object marker") }
      tree.refuse(name)
      value = .null
    }
    return ManifestNode(value: value, line: 0, column: 0)
  }

  /// A dictionary key, which must be a string.
  private mutating func key(_ object: Int) throws(ManifestProblem) -> String {
    let start = try offset(of: object)
    guard bytes[start] >> 4 == 0x5 || bytes[start] >> 4 == 0x6 else {
      throw tree.syntax("a dictionary key is not a string")
    }
    return try string(object, at: start)
  }

  /// An ASCII (`0x5n`) or UTF-16 big-endian (`0x6n`) string, decoded once per object.
  private mutating func string(_ object: Int, at start: Int) throws(ManifestProblem) -> String {
    if let cached = strings[object] { return cached }
    let isASCII = bytes[start] >> 4 == 0x5
    let (count, first) = try length(bytes[start], at: start)
    // Bounded before it is doubled, as a dictionary's width is: a count may be near `Int.max`.
    let size = isASCII ? count : 2 * min(count, offsetTable)
    guard count <= offsetTable, size <= offsetTable - first else {
      throw tree.syntax("a string runs past the end of the objects")
    }
    let text: String?
    if isASCII {
      let utf8 = UnsafeBufferPointer(rebasing: bytes[first..<(first + size)])
      text = utf8.allSatisfy { $0 < 0x80 } ? String(decoding: utf8, as: UTF8.self) : nil
    } else {
      let units = (0..<count).map {
        UInt16(bytes[first + 2 * $0]) << 8 | UInt16(bytes[first + 2 * $0 + 1])
      }
      text = String(validating: units, as: UTF16.self)
    }
    guard let text else { throw tree.syntax("a string is not valid ASCII or UTF-16") }
    strings[object] = text
    return text
  }

  /// An integer object of 1, 2, 4 (unsigned) or 8 (signed) bytes.
  private func integer(_ marker: UInt8, at start: Int) throws(ManifestProblem) -> Int {
    let size = 1 << Int(marker & 0xF)
    guard size <= 8, start + 1 + size <= offsetTable else {
      throw tree.syntax("an integer must be 1 to 8 bytes inside the objects")
    }
    let bits = unsigned(at: start + 1, size: size)
    return size == 8 ? Int(Int64(bitPattern: bits)) : Int(bits)
  }

  /// The entry count in a marker's low nibble, or in the integer object after it when the
  /// nibble is `0xF`; and where the contents start.
  private func length(_ marker: UInt8, at start: Int) throws(ManifestProblem) -> (Int, Int) {
    guard marker & 0xF == 0xF else { return (Int(marker & 0xF), start + 1) }
    guard start + 1 < offsetTable, bytes[start + 1] >> 4 == 0x1 else {
      throw tree.syntax("a length must be an integer object")
    }
    let count = try integer(bytes[start + 1], at: start + 1)
    guard count >= 0 else { throw tree.syntax("a length is negative") }
    return (count, start + 2 + (1 << Int(bytes[start + 1] & 0xF)))
  }

  /// Where object number `object` starts; it must lie between the header and the offset table.
  private func offset(of object: Int) throws(ManifestProblem) -> Int {
    guard object >= 0, object < objectCount else {
      throw tree.syntax("a reference to an object that does not exist")
    }
    let value = unsigned(at: offsetTable + object * offsetSize, size: offsetSize)
    guard value >= 8, value < UInt64(offsetTable) else {
      throw tree.syntax("an object offset outside the objects")
    }
    return Int(value)
  }

  /// The `index`th object reference in the list starting at `start`.
  private func reference(_ start: Int, _ index: Int) throws(ManifestProblem) -> Int {
    let value = unsigned(at: start + index * referenceSize, size: referenceSize)
    guard value < UInt64(objectCount) else {
      throw tree.syntax("a reference to an object that does not exist")
    }
    return Int(value)
  }

  /// A big-endian unsigned integer of `size` bytes; callers have checked the range.
  private func unsigned(at start: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for position in start..<(start + size) { value = value << 8 | UInt64(bytes[position]) }
    return value
  }
}
