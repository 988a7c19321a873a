/// Why `Kernel.add(_:)` with a list added nothing: the module that failed, its error,
/// and the modules of the same call added before it and withdrawn again.
package struct AddFailure: Error, CustomStringConvertible {
  /// The module whose addition failed.
  package let module: String
  package let cause: KernelError
  /// Modules added before it by the same call, withdrawn in the same change, in that order.
  package let withdrawn: [String]

  package var description: String { "\(cause)" }
}
