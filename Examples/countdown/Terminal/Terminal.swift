#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// The process's terminal: raw mode, the alternate screen, the cursor, its size, and writing to it.
///
/// Everything that changes the terminal is recorded here so that ``restore()`` can undo it from any
/// exit path — normal end, `q`, a signal, an error, `exit()`, or being stopped with Ctrl-Z — and
/// never twice.
enum Terminal {
  /// What was changed, and the settings to go back to.
  ///
  /// The saved settings are a plain `termios` with a separate flag, not a `termios?`: Swift 6.3.1
  /// with `-O` zeroes a `termios?` saved inside `Mutex.withLock` in a static like this one, and the
  /// release build then restored an all-zero termios (speed 0, no control characters) on every
  /// exit. The reproducer is Reproducers/OptionalTupleInMutex.swift; the pty tests
  /// (Tests/CountdownCommandTests/Terminal/TerminalRestoreTests.swift) check the release binary.
  private struct State: Sendable {
    var original = termios()
    var hasOriginal = false
    var rawModeActive = false
    var screenActive = false
    var titlePushed = false
    var exitHookInstalled = false
  }

  private static let state = Mutex(State())

  /// Whether standard output is a terminal.
  static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Whether standard input is a terminal.
  static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

  /// The terminal's size in character cells; 80×24 when it cannot be read.
  static var size: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Puts the terminal in raw mode on the alternate screen with the cursor hidden.
  ///
  /// Keys arrive one by one without echo; Ctrl-C and Ctrl-Z still send SIGINT and SIGTSTP (handled by
  /// ``SignalHandlers``); output processing stays on so `\n` starts a new line. Reads never block
  /// (`VMIN` and `VTIME` are 0). Calling it again after ``restore()`` (on SIGCONT) re-enters raw
  /// mode with the settings saved the first time.
  static func enterLiveMode() {
    state.withLock { state in
      if !state.exitHookInstalled {
        state.exitHookInstalled = true
        // `exit()` from anywhere (an error thrown out of the command, a signal handler) restores too.
        atexit { Terminal.restore() }
      }
      if inputIsTerminal {
        var settings = termios()
        if tcgetattr(STDIN_FILENO, &settings) == 0 {
          if !state.hasOriginal {
            state.original = settings
            state.hasOriginal = true
          }
          var raw = settings
          raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
          raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
          withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
          }
          if tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 { state.rawModeActive = true }
        }
      }
      if !state.screenActive {
        state.screenActive = true
        write(ANSI.enterAlternateScreen + ANSI.hideCursor)
      }
    }
  }

  /// Saves the window title on the terminal's title stack (xterm's `CSI 22 t`), so that
  /// ``restore()`` can bring it back after the bytes of ``windowTitleSequence(_:)`` changed it.
  /// Terminals without the stack ignore both.
  static func saveWindowTitle() {
    state.withLock { state in
      guard !state.titlePushed else { return }
      state.titlePushed = true
      write("\u{1B}[22;0t")
    }
  }

  /// The bytes that set the window title (OSC 2) to `title`, stripped of control characters.
  static func windowTitleSequence(_ title: String) -> String {
    "\u{1B}]2;" + TerminalText.sanitized(title) + "\u{7}"
  }

  /// Asks the terminal whether it supports synchronized output (DEC mode 2026); the answer arrives
  /// as a key, ``Key/modeReport(mode:value:)``.
  static func querySynchronizedOutput() {
    write("\u{1B}[?2026$p")
  }

  /// Gives the terminal back as it was: cooked mode, normal screen, visible cursor, the saved window
  /// title. Idempotent.
  static func restore() {
    state.withLock { state in
      if state.screenActive {
        state.screenActive = false
        write(ANSI.reset + ANSI.showCursor + ANSI.leaveAlternateScreen)
      }
      if state.titlePushed {
        state.titlePushed = false
        write("\u{1B}[23;0t")
      }
      if state.rawModeActive && state.hasOriginal {
        state.rawModeActive = false
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &state.original)
      }
    }
  }

  /// Writes `text` to standard output at once (no buffering), retrying partial writes.
  static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Reads whatever keys are waiting on standard input, without blocking.
  static func readKeys() -> [Key] {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    guard count > 0 else { return [] }
    return Key.decode(Array(buffer[..<count]))
  }
}

/// POSIX `write(2)`, named apart from ``Terminal/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
