import FoundationEssentials
import Glibc
import HostSystem
import Services
import TransitModel

/// Where a command's output goes and what it may know of the world: the environment, the
/// terminal and the clock. `Transit.main` runs against `.live()`; tests capture with
/// `.capturing()`.
public final class CommandContext {
  public var environment: [String: String]
  public let stdout: OutputSink
  public let stderr: OutputSink
  /// Whether stdout is a terminal (colour, progress bars, Unicode).
  public var stdoutIsTerminal: Bool
  /// Whether stderr is a terminal (progress bars go there).
  public var stderrIsTerminal: Bool
  /// The real clock unless `--now` fixes it.
  public var clock: WallClock
  /// The folder relative paths are resolved against.
  public var currentDirectory: String
  /// Waits this many seconds: the only sleeper (follow, record and the fetcher's retries).
  public var sleep: @Sendable (Double) -> Void
  /// Seconds elapsed on a clock that never jumps, for measuring waits (a fixed `--now` does
  /// not stop it).
  public var elapsed: @Sendable () -> Double
  /// The session the command opened last (`SessionSupport.session`), kept as long
  /// as the context. The process's context lives until `exit` (main.swift), which leaves
  /// closing the read-only files to the kernel: closing the store, its statements and its
  /// calendar one by one cost a one-shot command a tenth of its instructions. Opening again
  /// replaces it, so a watching command holds one.
  public var openedSession: TransitSession?

  public init(
    environment: [String: String], stdout: OutputSink, stderr: OutputSink,
    stdoutIsTerminal: Bool, stderrIsTerminal: Bool, clock: WallClock, currentDirectory: String,
    sleep: @escaping @Sendable (Double) -> Void = CommandContext.realSleep,
    elapsed: @escaping @Sendable () -> Double = CommandContext.monotonicSeconds
  ) {
    self.sleep = sleep
    self.elapsed = elapsed
    self.environment = environment
    self.stdout = stdout
    self.stderr = stderr
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
    self.clock = clock
    self.currentDirectory = currentDirectory
  }

  /// Sleeps on the real clock.
  public static let realSleep: @Sendable (Double) -> Void = { seconds in
    if seconds > 0 { Sleep.seconds(seconds) }
  }

  /// Seconds since an arbitrary start, never going back.
  public static let monotonicSeconds: @Sendable () -> Double = {
    Double(MonotonicClock.nanoseconds()) / 1e9
  }

  /// The process's own streams, environment and clock.
  public static func live() -> CommandContext {
    CommandContext(
      environment: ProcessEnvironment.read(),
      stdout: .fileDescriptor(1), stderr: .fileDescriptor(2),
      stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1,
      clock: .system, currentDirectory: FileManager.default.currentDirectoryPath)
  }

  /// Captures output in memory, for tests.
  public static func capturing(
    environment: [String: String] = [:], currentDirectory: String = "/"
  ) -> CommandContext {
    CommandContext(
      environment: environment, stdout: .memory(), stderr: .memory(),
      stdoutIsTerminal: false, stderrIsTerminal: false, clock: .system,
      currentDirectory: currentDirectory)
  }
}

/// A text stream: a file descriptor, or memory for tests.
public final class OutputSink: @unchecked Sendable {
  private let descriptor: Int32?
  private var buffer: [UInt8] = []

  private init(descriptor: Int32?) { self.descriptor = descriptor }

  /// Writes straight to `fd` (unbuffered: each call is one `write`).
  public static func fileDescriptor(_ fd: Int32) -> OutputSink { OutputSink(descriptor: fd) }

  /// Keeps what is written; read it back with `text`.
  public static func memory() -> OutputSink { OutputSink(descriptor: nil) }

  /// Whether the symbols the output draws with (`·`, `→`, `…`, box lines, arrows) are written
  /// as plain ASCII, one character for one so tables keep their columns. Names from the data
  /// are left as they are.
  public var plainSymbols = false

  /// What control characters and escape sequences may pass (see `TerminalText`); nil: all of
  /// them (JSON, which escapes them itself). Streams start sanitizing text, letting only a
  /// progress bar's erase-line through; `Transit` sets stdout's once it has parsed the command
  /// line: our colour on a colour terminal, nothing else, and no sanitizing for `--json`.
  var allowance: TerminalText.Allowance? = TerminalText.Allowance(colour: false, lineErase: true)

  /// The ASCII stand-in of each symbol `transit` draws with.
  static let asciiSymbols: [Character: Character] = [
    "·": "-", "×": "x", "…": "~", "─": "-", "–": "-", "│": "|", "├": "|", "┤": "|", "●": "*", "○": "o", "•": "*",
    "→": ">", "←": "<", "↑": "^", "↓": "v", "↗": "/", "↙": "/", "↖": "\\", "↘": "\\", "█": "#", "░": ".", "°": " ", "♿": "W",
  ]

  /// `text` with the symbols this stream writes: ASCII stand-ins when `plainSymbols`.
  public func symbols(_ text: String) -> String {
    plainSymbols ? String(text.map { Self.asciiSymbols[$0] ?? $0 }) : text
  }

  /// Writes `text` as UTF-8.
  public func write(_ text: String) {
    var text = symbols(text)
    if let allowance { text = TerminalText.sanitize(text, allowing: allowance) }
    guard let descriptor else {
      buffer.append(contentsOf: text.utf8)
      return
    }
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return  // a closed pipe (`transit … | head`): nothing more to say
        }
        offset += written
      }
    }
  }

  /// Writes `text` and a newline.
  public func line(_ text: String = "") { write(text + "\n") }

  /// What a memory sink has captured.
  public var text: String { String(decoding: buffer, as: UTF8.self) }
}
