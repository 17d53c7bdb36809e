#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Threads through the C library (Foundation's `Thread` is not in FoundationEssentials): the
// ingest's content hash runs on one beside the load.

/// Starts a detached thread running `body`.
public enum DetachedThread {
  private final class Start {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  /// Runs `body` on a new thread; on this one when no thread can be made.
  public static func start(_ body: @escaping () -> Void) {
    let start = Unmanaged.passRetained(Start(body))
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let created = pthread_create(
      &thread, &attributes,
      { raw in
        Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
      }, start.toOpaque())
    if created != 0 { start.takeRetainedValue().body() }
  }
}

/// A counting semaphore (`sem_t`).
public final class Semaphore: @unchecked Sendable {
  private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

  /// A semaphore counting `value`.
  public init(value: UInt32 = 0) { sem_init(semaphore, 0, value) }

  deinit {
    sem_destroy(semaphore)
    semaphore.deallocate()
  }

  /// Adds one, waking a waiter.
  public func signal() { sem_post(semaphore) }

  /// Waits until the count is above zero, then takes one (through interruptions by signals).
  public func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }
}

/// A value worked out on a thread of its own while the caller does something else; `value()`
/// waits for it.
public final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
  // Written once by the worker before `done` is signalled, read only after waiting on it.
  private var result: Result<Value, any Error>?
  private let done = Semaphore(value: 0)

  /// Starts `work` on a new thread.
  public init(_ work: @escaping @Sendable () throws -> Value) {
    DetachedThread.start { [self] in
      result = Result(catching: work)
      done.signal()
    }
  }

  /// The value, once the work has finished (at once after the first call).
  /// - Throws: what the work threw.
  public func value() throws -> Value {
    done.wait()
    done.signal()
    return try result!.get()
  }
}
