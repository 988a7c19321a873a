import Testing

@testable import ApiaryPluginGate

@Suite struct SwiftManglingTests {
  private func module(_ symbol: String) -> String? {
    SwiftMangling.declaringModule(ofDescriptor: ArraySlice(symbol.utf8)).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  @Test func typeAndProtocolDescriptorsNameTheirModule() {
    #expect(module("$s6Apiary6KernelCMn") == "Apiary")
    #expect(module("$s3Lib5ValueVMn") == "Lib")
    #expect(module("$s3Lib4KindOMn") == "Lib")
    #expect(module("$s3Lib6ModuleMp") == "Lib")
    #expect(module("$s6Apiary6KernelC5StateOMn") == "Apiary")  // a nested type
    #expect(module("$s11NotebookKit0A5EntryVMn") == "NotebookKit")  // word substitution
  }

  @Test func extensionsConformancesAndOtherSymbolsDoNot() {
    // Measured on this toolchain: a client that extends a library's types defines these.
    #expect(module("$s3Lib6KernelC6ClientE4moreSiyF") == nil)
    #expect(module("$s3Lib5ValueVs23CustomStringConvertible6ClientMc") == nil)
    #expect(module("$s3Lib6KernelC6Client5LocalADMc") == nil)
    #expect(module("$s3Lib6KernelC6ClientE6HelperVMn") == nil)  // a type nested in an extension
    #expect(module("$s3Lib6KernelC4bootSiyF") == nil)
    #expect(module("$s3Lib6KernelCN") == nil)
    #expect(module("apiary_plugin_entry") == nil)
    #expect(module("$s") == nil)
    #expect(module("$s999Apiary") == nil)
    #expect(module("$s6Apiary") == nil)
    #expect(module("$s6Apiary0") == nil)
  }

  /// The module a symbol a library needs belongs to, named in a `dlopen` failure.
  @Test func aSymbolNamesItsModule() {
    #expect(SwiftMangling.module(of: "$s6TagKit8Labeler2Mp") == "TagKit")
    #expect(SwiftMangling.module(of: "$s11NotebookKit4NoteV5titleSSvg") == "NotebookKit")
    #expect(SwiftMangling.module(of: "$sSS5countSivg") == nil)  // the standard library's
    #expect(SwiftMangling.module(of: "$s0A3Kit") == nil)  // not spelled out
    #expect(SwiftMangling.module(of: "apiary_plugin_entry") == nil)
    #expect(SwiftMangling.module(of: "$s") == nil)
    #expect(SwiftMangling.module(of: "$s99Tag") == nil)
  }
}
