import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal state to put back from a signal handler, which can capture nothing.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var hasSavedTermios = false
/// Set by the SIGWINCH handler, cleared by `Terminal.wait`.
nonisolated(unsafe) private var windowResized: sig_atomic_t = 0

/// Leaves the alternate screen, shows the cursor and restores the input mode: only
/// async-signal-safe calls, so the SIGINT / SIGTERM handler can use it too.
private func restoreTerminal() {
  if hasSavedTermios { _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios) }
  let leave: [UInt8] = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
  _ = leave.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// The full-screen view of `follow`: the alternate screen with the cursor hidden, stdin in
/// raw mode so `q` is read at once, frames redrawn in place (home, each line cleared to its
/// end, the rest cleared below: no blank flash), and everything restored on close, on Ctrl-C
/// and on SIGTERM.
final class Terminal {
  private var closed = false
  /// Whether our own colour may pass into frames (feed text never brings its own controls).
  var allowsColour = true

  private init() {}

  /// Enters the full-screen view; nil when stdout is not a terminal.
  static func open() -> Terminal? {
    guard isatty(STDOUT_FILENO) == 1 else { return nil }
    if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedTermios) == 0 {
      hasSavedTermios = true
      var raw = savedTermios
      // No echo, no line buffering; keep ISIG off too, so Ctrl-C arrives as a byte we handle.
      raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }
    let handler: @convention(c) (Int32) -> Void = { signal in
      restoreTerminal()
      _exit(128 + signal)
    }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
    signal(SIGHUP, handler)
    // A handler (not the default, which ignores it) makes a resize interrupt poll(2).
    signal(SIGWINCH) { _ in windowResized = 1 }
    let terminal = Terminal()
    terminal.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    return terminal
  }

  /// The window's size now (re-read each frame, so a resize takes effect at the next one).
  func size() -> (columns: Int, rows: Int) {
    var window = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 {
      return (Int(window.ws_col), Int(window.ws_row))
    }
    return (80, 24)
  }

  /// The size of the terminal stdout writes to, or nil when stdout is not one.
  static func windowSize() -> (columns: Int, rows: Int)? {
    var window = winsize()
    guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else {
      return nil
    }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Draws `lines` over the previous frame in one write.
  func draw(_ lines: [String]) {
    let rows = size().rows
    var text = "\u{1B}[H"
    let allowance = TerminalText.Allowance(colour: allowsColour, lineErase: false)
    for line in lines.prefix(max(1, rows)) { text += TerminalText.sanitize(line, allowing: allowance) + "\u{1B}[K\r\n" }
    text += "\u{1B}[J"
    write(text)
  }

  /// What ended a wait.
  enum Wake {
    /// The time ran out.
    case timeout
    /// `q`, `Q`, Ctrl-C or the end of input: the user wants out.
    case quit
    /// The window changed size: redraw now.
    case resized
  }

  /// Waits up to `seconds` (measured on `elapsed`, the command context's) for a key or a
  /// resize (SIGWINCH interrupts poll).
  func wait(seconds: Double, elapsed: () -> Double) -> Wake {
    let deadline = elapsed() + max(0, seconds)
    while true {
      if windowResized != 0 {
        windowResized = 0
        return .resized
      }
      let left = deadline - elapsed()
      if left <= 0 { return .timeout }
      var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000))
      guard ready > 0 else { continue }
      var byte: UInt8 = 0
      let count = read(STDIN_FILENO, &byte, 1)
      if count <= 0 { return .quit }
      if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") || byte == 3 { return .quit }
    }
  }

  /// Puts the terminal back; safe to call twice.
  func close() {
    guard !closed else { return }
    closed = true
    restoreTerminal()
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    signal(SIGHUP, SIG_DFL)
    signal(SIGWINCH, SIG_DFL)
  }

  deinit { close() }

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, bytes.count - offset) }
      if written <= 0 { break }
      offset += written
    }
  }
}
