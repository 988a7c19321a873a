import Testing

@testable import Apiary

@Test func placeholder() { #expect(TypeCatalog.runtimeLookup("Apiary.TypeCatalog") != nil) }
