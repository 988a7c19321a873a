// Stand-in for branch `gate`; see README.md here.
import Foundation

/// A 64-bit little-endian ELF file, read without loading it.
public struct ELFImage: Sendable {
  public let path: String
  public let isSharedObject: Bool
  public let machine: Int
  public let neededLibraries: [String]
  public let runpath: [String]
  public let definedSymbols: Set<String>
  private let bytes: [UInt8]
  private let sections: [String: (offset: Int, size: Int)]

  public init(contentsOf path: String) throws(PluginProblem) {
    self.path = path
    guard let data = FileManager.default.contents(atPath: path) else {
      throw PluginProblem(
        file: path, field: "library", expected: "a readable file", found: "nothing",
        message: "no such file or unreadable")
    }
    let bytes = [UInt8](data)
    self.bytes = bytes
    func notELF(_ found: String) -> PluginProblem {
      PluginProblem(
        file: path, field: "library", expected: "a 64-bit little-endian ELF shared object",
        found: found, message: "not a shared library for this machine")
    }
    guard bytes.count >= 64, bytes[0...3] == [0x7F, 0x45, 0x4C, 0x46] else {
      throw notELF("not ELF")
    }
    guard bytes[4] == 2, bytes[5] == 1 else { throw notELF("another ELF class or byte order") }
    func int(_ at: Int, _ size: Int) -> Int {
      guard at >= 0, at + size <= bytes.count else { return 0 }
      var value = 0
      for index in (0..<size).reversed() { value = value << 8 | Int(bytes[at + index]) }
      return value
    }
    func string(_ at: Int) -> String {
      guard at >= 0, at < bytes.count else { return "" }
      let end = bytes[at...].firstIndex(of: 0) ?? bytes.count
      return String(decoding: bytes[at..<end], as: UTF8.self)
    }
    isSharedObject = int(16, 2) == 3
    machine = int(18, 2)
    let (shoff, shentsize, shnum, shstrndx) = (
      int(0x28, 8), int(0x3A, 2), int(0x3C, 2), int(0x3E, 2)
    )
    var headers: [(name: Int, type: Int, offset: Int, size: Int, link: Int)] = []
    for index in 0..<shnum {
      let at = shoff + index * shentsize
      headers.append(
        (int(at, 4), int(at + 4, 4), int(at + 0x18, 8), int(at + 0x20, 8), int(at + 0x28, 4)))
    }
    let names = shstrndx < headers.count ? headers[shstrndx].offset : 0
    var sections: [String: (Int, Int)] = [:]
    var needed: [String] = []
    var runpath: [String] = []
    var defined: Set<String> = []
    for header in headers {
      sections[string(names + header.name)] = (header.offset, header.size)
      let strings = header.link < headers.count ? headers[header.link].offset : 0
      if header.type == 11 {  // SHT_DYNSYM
        for at in stride(from: header.offset, to: header.offset + header.size, by: 24)
        where int(at + 6, 2) != 0 {
          defined.insert(string(strings + int(at, 4)))
        }
      } else if header.type == 6 {  // SHT_DYNAMIC
        for at in stride(from: header.offset, to: header.offset + header.size, by: 16) {
          switch int(at, 8) {
          case 1: needed.append(string(strings + int(at + 8, 8)))
          case 15, 29:
            runpath += string(strings + int(at + 8, 8)).split(separator: ":").map(String.init)
          default: break
          }
        }
      }
    }
    self.sections = sections
    self.neededLibraries = needed
    self.runpath = runpath
    self.definedSymbols = defined
  }

  public func defines(_ name: String) -> Bool { definedSymbols.contains(name) }

  public func section(named name: String) -> [UInt8]? {
    guard let (offset, size) = sections[name], offset >= 0, offset + size <= bytes.count else {
      return nil
    }
    return Array(bytes[offset..<offset + size])
  }
}
