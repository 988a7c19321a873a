import Apiary
import Testing

/// The errors users catch are structs with a code: a user tells failures apart by comparing or
/// switching over the code (with a `default:`), so a code added later breaks no caller. Only the
/// public API is used here, as a plugin would.
@Suite struct ErrorCodeTests {
  @Test func aMediatorErrorCarriesItsCodeAndItsMessage() throws {
    let mediator = try Fixtures.mediator()
    let error = mediatorError { try mediator.perform(target: "nope", action: "x") }
    #expect(error?.code == .targetNotFound)
    #expect(error?.code != .actionNotFound)
    #expect(
      error?.description
        == "nope/x: no target 'nope' (is its module loaded?) and no fallback handled the call")
    let kind: String
    switch error?.code {
    case .targetNotFound?, .actionNotFound?: kind = "not found"
    default: kind = "other"
    }
    #expect(kind == "not found")
  }

  @Test func aContainerErrorCarriesItsCode() {
    let error = #expect(throws: ContainerError.self) { try Container().resolve(DIThing.self) }
    #expect(error?.code == .notBound)
    #expect(error?.description.hasPrefix("no binding for ApiaryTests.DIThing") == true)
  }

  @Test func aKernelErrorCarriesItsCode() async throws {
    let kernel = try Kernel(
      application: ApplicationManifest(name: "Codes", scheme: "codes"), modules: [],
      catalog: TypeCatalog())
    try await kernel.boot()
    let error = await #expect(throws: KernelError.self) { try await kernel.remove("nobody") }
    #expect(error?.code == .unknownModule)
    #expect(error?.description == "no module named 'nobody'")
    await kernel.shutdown()
  }

  @Test func aCodeIsItsName() {
    #expect(MediatorError.Code.timedOut.description == "timedOut")
    #expect(Set([KernelError.Code.hookFailed, .hookFailed, .interrupted]).count == 2)
    #expect("\(ContainerError.Code.cycle)" == "cycle")
  }
}
