import Testing

@testable import Apiary
@testable import ApiaryKernel
@testable import ApiaryMediator

/// A small deterministic generator (SplitMix64), so every run feeds the same URLs.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite struct URLFuzzTests {
  static let valid = "app://calc/add?a=1&b=2"

  /// One way to break a valid URL; each is invalid by construction.
  static func malformed(_ random: inout SeededGenerator) -> String {
    let base = valid
    let bytes = Array(base.utf8)
    let position = Int.random(in: 0...bytes.count, using: &random)
    func inserting(_ text: String, at index: Int) -> String {
      String(decoding: bytes[..<index] + Array(text.utf8) + bytes[index...], as: UTF8.self)
    }
    switch Int.random(in: 0..<10, using: &random) {
    case 0:  // a raw control character or space anywhere
      let raw = [UInt8](0...0x20) + [0x7F]
      let byte = raw[Int.random(in: 0..<raw.count, using: &random)]
      return inserting(String(decoding: [byte], as: UTF8.self), at: position)
    case 1:  // a broken percent escape anywhere
      let tail = ["", "g", "4", "4z", "%", "zz", "-1"].randomElement(using: &random) ?? ""
      return inserting("%" + tail, at: position)
    case 2:  // an invalid UTF-8 escape in a name or value
      let escape = ["%FF", "%C3", "%80", "%ED%A0%80", "%00", "%7F"].randomElement(using: &random)
      let spots = [8, 14, 16, 17, 18, 21].randomElement(using: &random) ?? 8
      return inserting(escape ?? "%FF", at: spots)
    case 3:  // a prefix up to "app://calc/add?a=": the required `a` is missing or empty
      return String(decoding: bytes[..<Int.random(in: 0...17, using: &random)], as: UTF8.self)
    case 4:  // another scheme
      let scheme = (0..<Int.random(in: 1...8, using: &random)).map { _ in
        Character(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &random)))
      }
      let text = String(scheme)
      return (text == "app" ? "apq" : text) + String(base.dropFirst(3))
    case 5:  // a repeated or undeclared parameter
      return base + (Bool.random(using: &random) ? "&a=3" : "&z\(position)=1")
    case 6:  // a value that is not an int
      let word = ["x", "1.5", "", "+", "--1", "0x10", "1e3", "١", "%E2%80%8B1"]
      return "app://calc/add?a=" + (word.randomElement(using: &random) ?? "x")
    case 7:  // more path segments, or none
      return ["app://calc/add/more?a=1", "app://calc?a=1", "app:///add?a=1", "app://calc/"]
        .randomElement(using: &random) ?? ""
    case 8:  // far too long
      return base + "&b=" + String(repeating: "9", count: RemoteURL.maximumLength)
    default:  // random printable and non-ASCII garbage
      let alphabet = Array("ap:/?&=%#+ťé😀\u{0}\u{7F}abc019")
      let count = Int.random(in: 0...40, using: &random)
      return String((0..<count).map { _ in alphabet.randomElement(using: &random) ?? "a" })
    }
  }

  @Test func thousandsOfMalformedURLsAllGiveTypedErrors() throws {
    let mediator = try Fixtures.mediator()
    var random = SeededGenerator(state: 20_261_122)
    var failures: [String] = []
    for _ in 0..<3000 {
      let url = Self.malformed(&random)
      if mediatorError({ try mediator.open(url) }) == nil { failures.append(url) }
    }
    #expect(failures.isEmpty, "accepted or threw an untyped error: \(failures.prefix(5))")
    // The unmodified URL is accepted, so the loop above can fail.
    #expect(try mediator.open(Self.valid) as? Int == 3)
  }

  @Test func randomByteFlipsNeverCrash() throws {
    let mediator = try Fixtures.mediator()
    var random = SeededGenerator(state: 7)
    var accepted = 0
    for _ in 0..<2000 {
      var bytes = Array(Self.valid.utf8)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      let url = String(decoding: bytes, as: UTF8.self)
      do {
        _ = try mediator.open(url)
        accepted += 1
      } catch is MediatorError {
      } catch {
        Issue.record("untyped error for \(url): \(error)")
      }
    }
    #expect(accepted < 2000)
  }
}
