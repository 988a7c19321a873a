import Foundation
import Testing

@testable import ApiaryProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct InputWatchTests {
  /// The watch goes off once per arming: re-arming while input waits wakes the sleeper again
  /// (nothing that arrived while it was disarmed is missed).
  @Test func armingWhileInputWaitsWakesTheSleeper() throws {
    let fds = try testPipe()
    defer { for fd in fds { close(fd) } }
    let watch = InputWatch(descriptor: fds[0])
    var byte: UInt8 = 1
    _ = write(fds[1], &byte, 1)
    watch.wait()  // armed from the start
    watch.disarm()
    watch.arm()
    watch.wait()  // the byte is still there
  }

  /// `epoll` refuses regular files; the watch then polls, which finds them readable at once.
  @Test func aRegularFileIsPolled() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("apiary-watch-\(getpid())").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    let watch = InputWatch(descriptor: descriptor)
    watch.disarm()
    watch.wait()
  }
}
