import Dispatch

/// The kernel actor's executor: a serial Dispatch queue, which gets a thread even when module
/// code blocks every thread of the Swift concurrency pool, so the kernel always acts on time
/// limits and shutdown requests.
///
/// It is also a task executor, for the kernel's own tasks (a wake-up): their steps outside the
/// actor run on the same queue, so going in and out of the actor needs no other thread. Every
/// job runs isolated to the kernel, which is exact: the queue is serial, so no other kernel job
/// runs meanwhile.
///
/// ```swift
/// Task(executorPreference: executor) { try await kernel.activate("search") }
/// ```
final class KernelExecutor: SerialExecutor, TaskExecutor {
  private let queue = DispatchQueue(label: "apiary.kernel")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async {
      job.runSynchronously(
        isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
    }
  }

  /// Runs `body` on the calling thread once no kernel job runs, as a kernel job would run
  /// (`Kernel.assumeIsolated` holds inside): a short synchronous kernel step without a thread
  /// hand-off. Never call it from a kernel job.
  func sync<T>(_ body: () -> T) -> T { queue.sync(execute: body) }

  func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}
