import Testing

@Test func hostPlaceholder() { #expect(1 + 1 == 2) }
