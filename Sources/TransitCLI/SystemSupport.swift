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
