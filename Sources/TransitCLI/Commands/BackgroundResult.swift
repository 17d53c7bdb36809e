import FoundationEssentials

/// A value worked out on a thread of its own while the caller does something else; `value()`
/// waits for it.
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
  // Written once by the worker before `done` is signalled, read only after waiting on it.
  private var result: Result<Value, any Error>?
  private let done = Semaphore(value: 0)

  /// Starts `work` on a new thread.
  init(_ work: @escaping @Sendable () throws -> Value) {
    DetachedThread.start { [self] in
      result = Result(catching: work)
      done.signal()
    }
  }

  /// The value, once the work has finished (at once after the first call).
  /// - Throws: what the work threw.
  func value() throws -> Value {
    done.wait()
    done.signal()
    return try result!.get()
  }
}
