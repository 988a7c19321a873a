import Foundation

/// Where the host writes: results to standard output, logs and errors to standard error.
enum Output {
  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func err(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}

/// Exit statuses of the `apiary` executable.
enum ExitStatus {
  static let success: Int32 = 0
  /// Invalid manifests, a failed boot or a refused call.
  static let failure: Int32 = 1
  /// A command line that does not parse.
  static let usage: Int32 = 2
}
