import Dispatch

/// The kernel actor's executor: a serial Dispatch queue, which gets a thread even when module
/// code blocks every thread of the Swift concurrency pool, so the kernel always acts on time
/// limits and shutdown requests.
final class KernelExecutor: SerialExecutor {
  private let queue = DispatchQueue(label: "apiary.kernel")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}
