import Foundation
import Testing

@testable import ApiaryPluginGate

final class NamedClass {}
struct NamedStruct {
  final class InnerClass {}
  enum InnerEnum {
    struct Deepest {}
  }
}
enum NamedEnum {
  case one
}
struct GenericBox<Value> {
  final class Inner {}
}
private final class PrivateClass {}
protocol NamedProtocol {}

@Suite struct QualifiedTypeNameTests {
  /// Types read from their context descriptors, and the name `_typeName` gives each.
  static let plain: [(Any.Type, String)] = [
    (NamedClass.self, "ApiaryPluginGateTests.NamedClass"),
    (NamedStruct.self, "ApiaryPluginGateTests.NamedStruct"),
    (NamedStruct.InnerClass.self, "ApiaryPluginGateTests.NamedStruct.InnerClass"),
    (NamedStruct.InnerEnum.Deepest.self, "ApiaryPluginGateTests.NamedStruct.InnerEnum.Deepest"),
    (NamedEnum.self, "ApiaryPluginGateTests.NamedEnum"),
    (Int.self, "Swift.Int"),
  ]

  /// Types left to `_typeName`: generic, inside a generic type, private, not nominal.
  static let others: [Any.Type] = [
    GenericBox<Int>.self, GenericBox<String>.Inner.self, PrivateClass.self, [Int].self,
    (Int, String).self, (any NamedProtocol).self, ((Int) -> Int).self, Int?.self,
  ]

  @Test func readsThePlainTypesNamesAsTypeNamePrintsThem() {
    for (type, name) in Self.plain {
      #expect(_typeName(type, qualified: true) == name)
      #expect(QualifiedTypeName.quickMatch(type, name) == true, "\(name)")
      #expect(QualifiedTypeName.matches(type, name), "\(name)")
    }
  }

  @Test func refusesEveryOtherNameOfAPlainType() {
    for (type, name) in Self.plain {
      let parts = name.split(separator: ".").map(String.init)
      let wrong = [
        "", ".", parts.last ?? "", parts.dropFirst().joined(separator: "."),
        parts.dropLast().joined(separator: "."), name + ".", "." + name, name + "X", "X" + name,
        "Other." + name, name.replacingOccurrences(of: "ApiaryPluginGateTests", with: "Apiary"),
        name.uppercased(), parts.reversed().joined(separator: "."),
      ]
      for candidate in wrong where candidate != name {
        #expect(QualifiedTypeName.quickMatch(type, candidate) == false, "\(name) as \(candidate)")
        #expect(!QualifiedTypeName.matches(type, candidate), "\(name) as \(candidate)")
      }
    }
  }

  @Test func leavesOtherTypesToTypeName() {
    for type in Self.others {
      let name = _typeName(type, qualified: true)
      #expect(QualifiedTypeName.quickMatch(type, name) == nil, "\(name)")
      #expect(QualifiedTypeName.matches(type, name), "\(name)")
      #expect(!QualifiedTypeName.matches(type, name + "X"), "\(name)")
    }
  }
}
