/// An ELF `e_machine` value: the processor a library was built for.
///
/// ```swift
/// let machine = ELFMachine(rawValue: 62)
/// print(machine)  // x86-64 (EM_X86_64 = 62)
/// assert(ELFMachine.host == .amd64 || ELFMachine.host == .aarch64)
/// ```
public struct ELFMachine: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The `e_machine` number.
  public let rawValue: UInt16

  /// Wraps an `e_machine` number.
  ///
  /// ```swift
  /// let arm = ELFMachine(rawValue: 183)
  /// ```
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// `EM_386`.
  public static let i386 = ELFMachine(rawValue: 3)
  /// `EM_ARM`.
  public static let arm = ELFMachine(rawValue: 40)
  /// `EM_X86_64` (x86-64, AMD64).
  public static let amd64 = ELFMachine(rawValue: 62)
  /// `EM_AARCH64`.
  public static let aarch64 = ELFMachine(rawValue: 183)
  /// `EM_RISCV`.
  public static let riscv = ELFMachine(rawValue: 243)
  /// `EM_PPC64`.
  public static let ppc64 = ELFMachine(rawValue: 21)
  /// `EM_S390`.
  public static let s390 = ELFMachine(rawValue: 22)

  /// The processor this code was compiled for.
  public static var host: ELFMachine {
    #if arch(x86_64)
      .amd64
    #elseif arch(arm64)
      .aarch64
    #elseif arch(i386)
      .i386
    #elseif arch(arm)
      .arm
    #elseif arch(powerpc64) || arch(powerpc64le)
      .ppc64
    #elseif arch(s390x)
      .s390
    #else
      .riscv
    #endif
  }

  /// `x86-64 (EM_X86_64 = 62)`, or `machine 4711` when unknown.
  public var description: String {
    let names: [UInt16: String] = [
      3: "i386 (EM_386", 40: "ARM (EM_ARM", 62: "x86-64 (EM_X86_64",
      183: "AArch64 (EM_AARCH64", 243: "RISC-V (EM_RISCV", 21: "PowerPC64 (EM_PPC64",
      22: "s390 (EM_S390",
    ]
    return names[rawValue].map { "\($0) = \(rawValue))" } ?? "machine \(rawValue)"
  }
}
