import FoundationEssentials
import Glibc
import TransitModel

/// Threads, sleeps and child processes through the C library (Foundation's `Thread` and
/// `Process` are not in FoundationEssentials, and a command should not load all of Foundation for
/// them).
enum Sleep {
  /// Sleeps `seconds` on the real clock (through interruptions by signals).
  static func seconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    let whole = seconds.rounded(.down)
    var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}

/// The process's environment variables, read from `environ` (what `ProcessInfo`'s
/// `environment` gives, for a fraction of its start-up cost); the first of a name set twice.
enum ProcessEnvironment {
  static func read() -> [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    var result: [String: String] = [:]
    result.reserveCapacity(count)
    for index in 0..<count {
      let bytes = UnsafeRawBufferPointer(start: environ[index]!, count: strlen(environ[index]!))
      guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: bytes[..<equals], as: UTF8.self)
      if result[name] == nil { result[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
    }
    return result
  }
}

/// Runs a program and waits for it, its standard input and output on /dev/null.
enum ChildProcess {
  /// Runs `path` with `arguments` (after its own name, as `Process.arguments`) and `environment`;
  /// false when it could not be started.
  @discardableResult
  static func run(_ path: String, arguments: [String], environment: [String: String]) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var child = pid_t()
    guard posix_spawn(&child, path, &actions, nil, argv, envp) == 0 else { return false }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    return true
  }
}

/// Starts a detached thread running `body`.
enum DetachedThread {
  private final class Start {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  /// Runs `body` on a new thread; on this one when no thread can be made.
  static func start(_ body: @escaping () -> Void) {
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
final class Semaphore: @unchecked Sendable {
  private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

  init(value: UInt32 = 0) { sem_init(semaphore, 0, value) }

  deinit {
    sem_destroy(semaphore)
    semaphore.deallocate()
  }

  func signal() { sem_post(semaphore) }

  func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }
}

extension Transit {
  /// What went wrong with a file operation, lower-case, without the path: "permission denied",
  /// "not a directory" (what `localizedDescription` said at more length).
  static func fileProblem(_ error: any Error) -> String {
    if let error = error as? CocoaError {
      if let posix = error.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)).lowercased() }
      switch error.code {
      case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
      case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
      case .fileWriteOutOfSpace: return "no space left on device"
      case .fileWriteFileExists: return "already exists"
      default: return "cannot be read or written (\(error.code.rawValue))"
      }
    }
    if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)).lowercased() }
    return "\(error)"
  }
}

/// RFC 9110 dates (`Sun, 06 Nov 1994 08:49:37 GMT`), read as the `DateFormatter` with
/// `EEE, dd MMM yyyy HH:mm:ss zzz` (en_US_POSIX, GMT) read them.
enum HTTPDateText {
  static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
      ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].contains(parts[0].dropLast().lowercased()),
      let day = Int(parts[1]), let year = Int(parts[3]), parts[3].count == 4
    else { return nil }
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    guard let monthIndex = months.firstIndex(of: parts[2].lowercased()) else { return nil }
    let clock = parts[4].split(separator: ":")
    guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let offset: Int
    switch parts[5] {
    case "GMT", "UTC", "UT", "Z": offset = 0
    default:
      let zone = Array(parts[5].utf8)
      guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
        let hours = Int(parts[5].dropFirst().prefix(2)), let minutes = Int(parts[5].suffix(2))
      else { return nil }
      offset = (zone[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
    guard let date = ServiceDate(year: year, month: monthIndex + 1, day: day) else { return nil }
    return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
  }
}
