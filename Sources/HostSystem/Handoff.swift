#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `produce` on `producers` threads of their own while the caller consumes what they make,
/// in order: producer `p` makes the values at positions `p`, `p + producers`, `p + 2 ×
/// producers`… of the sequence, each through a queue of at most `capacity` values, and the
/// consumer takes them in turn from each queue. A producer waits when the consumer is that far
/// behind, so what is held at once stays bounded whatever the input's length. On a machine of
/// two cores or more, the halves of a sequential job (reading and matching snapshots, then
/// inferring and writing what they say) run side by side, and the costlier half on several.
///
/// `produce` gets its producer's number and a `put` that hands one value over and says whether
/// to go on: false once the consumer has stopped, when the producer should return. A producer
/// that returns ends the sequence at its next position (one that stops at a failure ends it
/// there). `consume` runs on the caller's thread with a `next` that gives the values in order
/// (waiting for each), nil after the last; it may stop early. Every producer has returned when
/// this returns or throws.
///
/// Shared by the history import (Services) and the ingest's stop_times pipeline (GTFS).
/// - Throws: what `consume` threw.
package func handingOff<Value: Sendable>(
  producers: Int = 1, capacity: Int, produce: @escaping @Sendable (_ producer: Int, _ put: (Value) -> Bool) -> Void,
  consume: (_ next: () -> Value?) throws -> Void
) rethrows {
  let count = max(1, producers)
  let queues = (0..<count).map { _ in Handoff<Value>(capacity: capacity) }
  var threads: [ProducerThread] = []
  defer {
    for queue in queues { queue.cancel() }
    for thread in threads { thread.join() }
  }
  for (number, queue) in queues.enumerated() {
    let work: @Sendable () -> Void = {
      produce(number) { queue.put($0) }
      queue.finish()
    }
    if let thread = ProducerThread(work) {
      threads.append(thread)
    } else {
      // No thread to be had: this producer's values are all made first (unbounded).
      queue.unbound()
      work()
    }
  }
  var position = 0
  try consume {
    let value = queues[position % count].take()
    if value != nil { position += 1 }
    return value
  }
}

/// A bounded first-in, first-out queue between one producer thread and one consumer.
private final class Handoff<Value: Sendable>: @unchecked Sendable {
  // Every stored property below is read and written with `lock` held.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var values: [Value?] = []
  private var head = 0
  private var capacity: Int
  private var isFinished = false
  private var isCancelled = false

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    pthread_mutex_init(lock, nil)
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(lock)
    changed.deallocate()
    lock.deallocate()
  }

  private var count: Int { values.count - head }

  /// Adds `value`, waiting while the queue is full; false (the value dropped) once cancelled.
  func put(_ value: Value) -> Bool {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while count >= capacity && !isCancelled { pthread_cond_wait(changed, lock) }
    guard !isCancelled else { return false }
    if head > 0 && head == values.count {
      values.removeAll(keepingCapacity: true)
      head = 0
    }
    values.append(value)
    pthread_cond_broadcast(changed)
    return true
  }

  /// The next value, waiting for one; nil once the producer has finished and all are taken.
  func take() -> Value? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while count == 0 && !isFinished { pthread_cond_wait(changed, lock) }
    guard count > 0 else { return nil }
    let value = values[head].take()
    head += 1
    pthread_cond_broadcast(changed)
    return value
  }

  /// Lets the queue grow without bound (for a producer run before any value is taken).
  func unbound() {
    pthread_mutex_lock(lock)
    capacity = .max
    pthread_mutex_unlock(lock)
  }

  /// The producer has put its last value.
  func finish() {
    pthread_mutex_lock(lock)
    isFinished = true
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(lock)
  }

  /// The consumer takes no more: a waiting or later `put` returns false.
  func cancel() {
    pthread_mutex_lock(lock)
    isCancelled = true
    values.removeAll()
    head = 0
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(lock)
  }
}

/// A joinable thread running one closure.
private final class ProducerThread {
  private let thread: pthread_t
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts `run` on a new thread; nil when none can be made.
  init?(_ run: @escaping @Sendable () -> Void) {
    let body = Unmanaged.passRetained(Body(run))
    var made = pthread_t()
    let created = pthread_create(
      &made, nil,
      { raw in
        Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, body.toOpaque())
    guard created == 0 else {
      body.release()
      return nil
    }
    thread = made
  }

  /// Waits for the thread to end.
  func join() { pthread_join(thread, nil) }
}
