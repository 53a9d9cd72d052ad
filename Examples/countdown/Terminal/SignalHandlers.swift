#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch

/// Turns the signals a terminal program must handle into calls on the main queue.
///
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore the terminal and exit with 128 + the signal number
///   (130 for Ctrl-C), as shells expect. Installed before the terminal is changed, so that no
///   signal can arrive in between and leave it in raw mode.
/// - SIGTSTP (Ctrl-Z): restore the terminal, then stop for real; SIGCONT (fg, or `kill -CONT` after a
///   SIGSTOP that could not be caught) calls `onContinue`, which re-enters live mode and redraws.
/// - SIGWINCH: `onResize`.
///
/// The handlers are dispatch sources on a queue of their own; `init` returns only once every source
/// is registered. Registration is asynchronous, and the signal is ignored from the moment the source
/// is made, so without the wait a Ctrl-C typed in between would be lost.
@MainActor
final class SignalHandlers {
  private var sources: [any DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "countdown.signals")
  private let registered = DispatchGroup()

  /// Installs the handlers and waits until they are registered; they stay until the process exits.
  init(live: Bool, onContinue: @escaping @MainActor () -> Void = {}, onResize: @escaping @MainActor () -> Void = {}) {
    defer { registered.wait() }
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      install(signalNumber) {
        Terminal.restore()
        exit(128 + signalNumber)
      }
    }
    guard live else { return }
    install(SIGTSTP) {
      Terminal.restore()
      // SIGTSTP itself is ignored while the handler is installed: stop with SIGSTOP instead.
      kill(getpid(), SIGSTOP)
    }
    install(SIGCONT, handler: onContinue)
    install(SIGWINCH, handler: onResize)
  }

  private func install(_ signalNumber: Int32, handler: @escaping @MainActor () -> Void) {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
    registered.enter()
    // Both run on `queue`, not on the main actor.
    source.setRegistrationHandler { @Sendable [registered] in registered.leave() }
    source.setEventHandler { @Sendable in DispatchQueue.main.async { MainActor.assumeIsolated { handler() } } }
    source.resume()
    sources.append(source)
  }
}

/// Calls `onKeys` on the main queue with the keys typed, as they arrive.
@MainActor
final class KeyReader {
  private let source: any DispatchSourceRead

  /// Starts reading standard input.
  init(onKeys: @escaping @MainActor ([Key]) -> Void) {
    source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    source.setEventHandler { [source] in
      MainActor.assumeIsolated {
        let keys = Terminal.readKeys()
        // End of input (a closed pipe) would otherwise wake this handler forever.
        if keys.isEmpty && source.data == 0 { source.cancel() }
        if !keys.isEmpty { onKeys(keys) }
      }
    }
    source.resume()
  }

  /// Stops reading.
  func cancel() { source.cancel() }
}
