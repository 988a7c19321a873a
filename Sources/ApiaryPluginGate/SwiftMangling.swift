/// Just enough of Swift's symbol mangling to tell which module *declares* a type or protocol
/// whose descriptor a library defines, and which module a symbol a library needs belongs to.
///
/// A library that defines `$s6Apiary6KernelCMn` (the nominal type descriptor of `Apiary.Kernel`)
/// holds a copy of module `Apiary`. A library that only extends `Kernel` defines symbols that
/// also start with `$s6Apiary` (`$s6Apiary6KernelC5NotesE4moreSiyF`), but never a descriptor
/// without an extension marker (`E`), so only descriptors count.
package enum SwiftMangling {
  /// The module that declares the type (`…CMn`, `…VMn`, `…OMn`) or protocol (`…Mp`) whose
  /// descriptor `symbol` names, or `nil` for any other symbol.
  static func declaringModule(ofDescriptor symbol: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    var cursor = symbol.startIndex
    guard symbol.starts(with: [0x24, 0x73]) else { return nil }  // "$s"
    cursor += 2
    guard let module = identifier(in: symbol, at: &cursor) else { return nil }
    while true {
      guard identifier(in: symbol, at: &cursor) != nil, cursor < symbol.endIndex else { return nil }
      switch symbol[cursor] {
      case 0x43, 0x56, 0x4f:  // C (class), V (struct), O (enum): a type, maybe with nested ones
        cursor += 1
        if symbol[cursor...].elementsEqual([0x4d, 0x6e]) { return module }  // "Mn"
      case 0x4d:  // "Mp" right after a protocol's name
        return symbol[cursor...].elementsEqual([0x4d, 0x70]) ? module : nil
      default:
        return nil  // E (an extension in another module) and everything else
      }
    }
  }

  /// The module a Swift symbol starts with: `TagKit` for `$s6TagKit8LabelerMp` (its protocol
  /// descriptor) or `$s6TagKit4NoteV5titleSSvg` (a getter); nil for a symbol that is not
  /// Swift's, or whose module name is not spelled out.
  package static func module(of symbol: String) -> String? {
    let bytes = ArraySlice(symbol.utf8)
    var cursor = bytes.startIndex + 2
    guard bytes.starts(with: [0x24, 0x73]), bytes.dropFirst(2).first != 0x30,  // "$s", not "0"
      let module = identifier(in: bytes, at: &cursor)
    else { return nil }
    return String(decoding: module, as: UTF8.self)
  }

  /// Skips one identifier at `cursor` and returns its characters (for a plain `<len><chars>`
  /// one) or its mangled text (for one with word substitutions, `0…`, which matches no module
  /// name). Follows the demangler: after `0`, lower-case letters are word substitutions that
  /// continue, an upper-case one is the last; `<len><chars>` parts follow; a `0` ends it early.
  private static func identifier(in symbol: ArraySlice<UInt8>, at cursor: inout Int)
    -> ArraySlice<UInt8>?
  {
    guard cursor < symbol.endIndex, isDigit(symbol[cursor]) else { return nil }
    if symbol[cursor] != 0x30 {
      guard let length = natural(in: symbol, at: &cursor) else { return nil }
      cursor += length
      return symbol[cursor - length..<cursor]
    }
    let start = cursor
    cursor += 1
    var substitutions = true
    if cursor < symbol.endIndex && symbol[cursor] == 0x30 {
      cursor += 1  // "00": punycode, no substitutions
      substitutions = false
    }
    repeat {
      while substitutions, cursor < symbol.endIndex, isLetter(symbol[cursor]) {
        if symbol[cursor] < 0x61 { substitutions = false }
        cursor += 1
      }
      if cursor < symbol.endIndex && symbol[cursor] == 0x30 {
        cursor += 1
        break
      }
      guard let length = natural(in: symbol, at: &cursor) else { return nil }
      cursor += length
    } while substitutions
    return symbol[start..<cursor]
  }

  /// A positive decimal length at `cursor` that fits in the rest of `symbol`.
  private static func natural(in symbol: ArraySlice<UInt8>, at cursor: inout Int) -> Int? {
    var length = 0
    let start = cursor
    while cursor < symbol.endIndex, isDigit(symbol[cursor]) {
      length = length * 10 + Int(symbol[cursor] - 0x30)
      guard length <= symbol.count else { return nil }
      cursor += 1
    }
    guard cursor > start, length > 0, length <= symbol.endIndex - cursor else { return nil }
    return length
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
  }
}
