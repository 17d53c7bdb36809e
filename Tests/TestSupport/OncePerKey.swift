import Foundation

/// Values made at most once per key in a test process (an ingested feed, a reference built from
/// it), each under a lock of its own: a test waits only for the value it asks for, never for
/// another key's (a test blocked on a lock holds one of the few threads the tests run on). A
/// value that failed to be made fails every test that asks for it, each alone, not the run.
public final class OncePerKey<Value>: @unchecked Sendable {
  private final class Entry {
    let lock = NSLock()
    var result: Result<Value, any Error>?
  }

  private let lock = NSLock()
  private var entries: [String: Entry] = [:]

  public init() {}

  /// The value for `key`, made by `make` the first time it is asked for.
  public func value(_ key: String, make: () throws -> Value) throws -> Value {
    lock.lock()
    let entry = entries[key] ?? Entry()
    entries[key] = entry
    lock.unlock()
    entry.lock.lock()
    defer { entry.lock.unlock() }
    if entry.result == nil { entry.result = Result { try make() } }
    return try entry.result!.get()
  }
}
