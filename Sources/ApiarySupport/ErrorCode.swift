/// Which failure an Apiary error reports, without its details: the `code` of ``KernelError``,
/// ``ContainerError`` and ``MediatorError``, as in swift-service-lifecycle's `ServiceGroupError`.
/// Later versions add codes, so compare with `==`, or switch with a `default:` case:
///
/// ```swift
/// switch error.code {
/// case .targetNotFound, .actionNotFound: print("not installed: \(error)")
/// default: print(error)
/// }
/// ```
///
/// Every error type follows one pattern, so a failure is added in three steps:
/// 1. a case with the message's values in the error's `package` details enum (`…ErrorDetails`),
///    and its message in that enum's `description`;
/// 2. a documented `public static var` in the error's `extension ErrorCode where Domain == …`;
/// 3. a `package static func` of the same name on the error returning
///    `Self(code: .name, details: .name(…))`, so a call site reads `throw KernelError.name(…)`.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
  /// The code's name, as written after the dot: `targetNotFound`.
  public let description: String

  package init(_ name: String) {
    description = name
  }
}
