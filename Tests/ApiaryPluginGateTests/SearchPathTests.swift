import Testing

@testable import ApiaryPluginGate

@Suite struct SearchPathTests {
  @Test func expandsOriginInBothSpellings() {
    #expect(SearchPath.expand("$ORIGIN", origin: "/p") == "/p")
    #expect(SearchPath.expand("${ORIGIN}/../lib", origin: "/p/x") == "/p/x/../lib")
    #expect(SearchPath.expand("$ORIGIN:$ORIGIN", origin: "/o") == "/o:/o")
    #expect(SearchPath.expand("/opt/lib", origin: "/p") == "/opt/lib")
    #expect(SearchPath.expand("$LIB/x", origin: "/p") == "$LIB/x")
  }

  @Test func expandsByBytesAndKeepsEveryOtherDollar() {
    #expect(SearchPath.expand("a$ORIGINb", origin: "/p") == "a/pb")
    #expect(SearchPath.expand("$ORIGI", origin: "/p") == "$ORIGI")
    #expect(SearchPath.expand("x$", origin: "/p") == "x$")
    #expect(SearchPath.expand("$$ORIGIN${ORIGIN", origin: "/p") == "$/p${ORIGIN")
    #expect(SearchPath.expand("/ü/$ORIGIN/é", origin: "/ö") == "/ü//ö/é")
  }

  @Test func originIsTheLibrarysDirectory() {
    #expect(SearchPath.directory(of: "/a/b/libX.so") == "/a/b")
    #expect(SearchPath.directory(of: "/libX.so") == "/")
    #expect(SearchPath.directory(of: "libX.so") == ".")
    #expect(SearchPath.directory(of: "/ü/é/libX.so") == "/ü/é")
  }
}
