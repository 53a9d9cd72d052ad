import CountdownTesting
import Foundation
import Spawn
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("ChildProcess", .timeLimit(.minutes(5)))
struct ChildProcessTests {
  @Test("Arguments reach the program as they are, without a shell")
  func argumentsWithoutAShell() async throws {
    let arguments = ["a b", "$HOME", "'quoted'", "*", "", "naïve ๓"]
    let result = try await ChildProcess.run(ChildCommand("printf", arguments: ["%s|"] + arguments))
    #expect(result.termination == .exited(0))
    #expect(result.outputText == arguments.map { $0 + "|" }.joined())
  }

  @Test("A shell only when asked, with its arguments as $1 …")
  func shellWhenAsked() async throws {
    let result = try await ChildProcess.run(.shell("echo \"$1-$2\" $((6 * 7))", arguments: ["a b", "c"]))
    #expect(result.outputText == "a b-c 42\n")
  }

  @Test("Exit status and signal are reported")
  func statusAndSignal() async throws {
    #expect(try await ChildProcess.run(.shell("exit 3")).termination == .exited(3))
    #expect(try await ChildProcess.run(.shell("kill -TERM $$")).termination == .signalled(SIGTERM))
    #expect(try await ChildProcess.run(.shell("true")).termination.isSuccess)
  }

  @Test("Standard output and standard error are captured apart, or together")
  func outputAndErrors() async throws {
    let script = "echo out; echo err >&2; echo out2"
    let apart = try await ChildProcess.run(.shell(script))
    #expect(apart.outputText == "out\nout2\n")
    #expect(apart.errorText == "err\n")
    let child = try ChildProcess(.shell(script), output: .capture, errors: .sameAsOutput)
    #expect(await child.wait() == .exited(0))
    #expect(String(decoding: child.output, as: UTF8.self) == "out\nerr\nout2\n")
    #expect(child.errors.isEmpty)
    let discarded = try await ChildProcess.run(.shell(script), output: .discard, errors: .discard)
    #expect(discarded.output.isEmpty && discarded.errors.isEmpty && discarded.termination.isSuccess)
  }

  @Test("Output larger than a pipe's buffer is read whole")
  func largeOutput() async throws {
    let result = try await ChildProcess.run(.shell("head -c 1000000 /dev/zero | tr '\\0' x"))
    #expect(result.output.count == 1_000_000)
    #expect(result.output.allSatisfy { $0 == UInt8(ascii: "x") })
  }

  @Test("Standard input from a pipe, ended by closeInput()")
  func inputPipe() async throws {
    let child = try ChildProcess(ChildCommand("cat"), input: .pipe, output: .capture)
    try child.write(Array("hello\n".utf8))
    try child.write(Array("again\n".utf8))
    child.closeInput()
    #expect(await child.wait() == .exited(0))
    #expect(String(decoding: child.output, as: UTF8.self) == "hello\nagain\n")
  }

  @Test("Standard input is /dev/null unless asked otherwise")
  func inputIsNull() async throws {
    let result = try await ChildProcess.run(ChildCommand("cat"))
    #expect(result.termination == .exited(0) && result.output.isEmpty)
  }

  @Test("The environment is exactly the one given")
  func environmentExactly() async throws {
    let result = try await ChildProcess.run(
      ChildCommand("/usr/bin/env", environment: ChildEnvironment(["ONLY": "this one", "EMPTY": ""])))
    #expect(result.outputText.split(separator: "\n").sorted() == ["EMPTY=", "ONLY=this one"])
  }

  @Test("The inherited environment is the parent's without its secrets")
  func inheritedWithoutSecrets() {
    var parent = ProcessInfo.processInfo.environment
    #expect(ChildEnvironment.inherited().values == parent.filter { !ChildEnvironment.secrets.contains($0.key) })
    parent["PGPASSWORD"] = "hunter2"
    let built = ChildEnvironment(parent).removing(ChildEnvironment.secrets).setting(["COUNTDOWN_TITLE": "Tea"])
    #expect(built["PGPASSWORD"] == nil)
    #expect(built["COUNTDOWN_TITLE"] == "Tea")
    #expect(ChildEnvironment.secrets.contains("PGPASSWORD"))
  }

  @Test("A program is found on the PATH of the child's environment, or the error says so")
  func lookUp() async throws {
    let command = ChildCommand("sh", environment: ChildEnvironment(["PATH": "/nonexistent:/bin"]))
    #expect(try command.resolvedExecutable() == "/bin/sh")
    let missing = ChildCommand("no-such-program-here")
    #expect(throws: ChildProcessError.notFound("no-such-program-here")) { try missing.resolvedExecutable() }
    await #expect(throws: ChildProcessError.notFound("no-such-program-here")) {
      try await ChildProcess.run(missing)
    }
    #expect(ChildProcessError.notFound("x").description.contains("no such program"))
  }

  @Test("A failure before exec is an error that names it")
  func failuresBeforeExec() async throws {
    await #expect(
      throws: ChildProcessError.system(what: "changing to the working directory of '/bin/sh'", errno: ENOENT)
    ) {
      try await ChildProcess.run(.shell("true", workingDirectory: "/no/such/directory"))
    }
    await #expect(throws: ChildProcessError.system(what: "starting '/dev/null'", errno: EACCES)) {
      try await ChildProcess.run(ChildCommand("/dev/null"))
    }
    await #expect(throws: ChildProcessError.embeddedNUL("a\0b")) {
      try await ChildProcess.run(ChildCommand("printf", arguments: ["a\0b"]))
    }
  }

  @Test("The working directory is the one given")
  func workingDirectory() async throws {
    let result = try await ChildProcess.run(ChildCommand("pwd", workingDirectory: "/tmp"))
    #expect(result.outputText == "/tmp\n")
  }

  #if os(Linux)
    @Test("The child leads a process group of its own")
    func ownProcessGroup() async throws {
      let lines = OutputLines()
      let child = try ChildProcess(.shell("echo ready; exec sleep 60"), output: .capture, onOutput: lines.handler)
      #expect(await lines.next() == "ready")
      #expect(getpgid(child.pid) == child.pid)
      #expect(getpgid(child.pid) != getpgrp())
      child.terminate()
      #expect(await child.wait() == .signalled(SIGTERM))
    }

    @Test("Signals start at their defaults and unblocked, whatever the parent ignores or blocks")
    func signalsReset() async throws {
      let previous = signal(SIGUSR2, SIG_IGN)
      defer { signal(SIGUSR2, previous) }
      let usr2: UInt64 = 1 << (UInt64(SIGUSR2) - 1)
      // Blocked on this thread while the child starts (no suspension in between): the thread that
      // starts it inherits this thread's mask.
      let (child, parentStatus) = try Self.withSIGUSR2Blocked {
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let child = try ChildProcess(ChildCommand("cat", arguments: ["/proc/self/status"]), output: .capture)
        return (child, status)
      }
      #expect(Self.mask("SigIgn", in: parentStatus) & usr2 != 0)
      #expect(Self.mask("SigBlk", in: parentStatus) & usr2 != 0)
      #expect(await child.wait() == .exited(0))
      let status = String(decoding: child.output, as: UTF8.self)
      // Signals 32 and 33 are glibc's own (thread cancellation, set-ID broadcast): its sigaction refuses
      // them, and a program's glibc sets them up itself.
      let glibcs: UInt64 = 0b11 << 31
      #expect(Self.mask("SigIgn", in: status) & ~glibcs == 0)
      #expect(Self.mask("SigBlk", in: status) == 0)
    }

    /// Runs `body` with SIGUSR2 blocked on the calling thread.
    static func withSIGUSR2Blocked<R>(_ body: () throws -> R) rethrows -> R {
      var blocked = sigset_t()
      var previous = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGUSR2)
      pthread_sigmask(SIG_BLOCK, &blocked, &previous)
      defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
      return try body()
    }

    @Test("No descriptor of the parent's reaches the child but 0, 1 and 2")
    func noInheritedDescriptors() async throws {
      // Opened without close-on-exec, as a careless library might.
      let leaky = open("/dev/null", O_RDONLY)
      defer { close(leaky) }
      #expect(leaky > 2)
      let result = try await ChildProcess.run(.shell("ls /proc/$$/fd"))
      #expect(result.outputText.split(separator: "\n") == ["0", "1", "2"])
    }

    @Test("A timeout ends a child that ignores SIGTERM: SIGTERM, then SIGKILL after the grace period")
    func timeoutEscalates() async throws {
      let clock = ManualClock()
      let lines = OutputLines()
      let run = Task {
        try await ChildProcess.run(
          .shell("trap '' TERM; echo ready; while :; do sleep 1; done"), timeout: .seconds(5), grace: .seconds(2),
          clock: clock, onOutput: lines.handler)
      }
      // Once the shell ignores SIGTERM, let the timeout pass.
      #expect(await lines.next() == "ready")
      #expect(clock.sleeperCount == 1)
      clock.advance(by: .seconds(5))
      // Then the grace period's sleep.
      while clock.sleeperCount == 0 { await Task.yield() }
      clock.advance(by: .seconds(2))
      let result = try await run.value
      #expect(result.timedOut)
      #expect(result.termination == .signalled(SIGKILL))
    }

    @Test("A child that ends on SIGTERM ends before the grace period; a run within its timeout is not timed out")
    func timeoutPolite() async throws {
      let clock = ManualClock()
      let run = Task {
        try await ChildProcess.run(.shell("exec sleep 60"), timeout: .seconds(1), clock: clock)
      }
      while clock.sleeperCount == 0 { await Task.yield() }
      clock.advance(by: .seconds(1))
      let result = try await run.value
      #expect(result.timedOut)
      #expect(result.termination == .signalled(SIGTERM))
      let quick = try await ChildProcess.run(.shell("echo quick"), timeout: .seconds(30))
      #expect(!quick.timedOut && quick.outputText == "quick\n")
    }

    @Test("Ending the group ends a grandchild in the background too")
    func grandchildInTheBackground() async throws {
      let lines = OutputLines()
      let child = try ChildProcess(
        .shell("sleep 60 & echo $!; while :; do sleep 1; done"), output: .capture, onOutput: lines.handler)
      let grandchild = try #require(await lines.next().flatMap { Int32($0) })
      #expect(getpgid(grandchild) == child.pid)
      child.terminate(grace: .seconds(1))
      #expect(await child.wait() == .signalled(SIGTERM))
      #expect(ProcessProbes.waitForEnd(of: grandchild))
    }

    @Test("A grandchild that keeps the output open does not hold up the child's end")
    func grandchildKeepsOutputOpen() async throws {
      let child = try ChildProcess(.shell("sleep 60 & echo $!"), output: .capture)
      #expect(await child.wait() == .exited(0))
      let grandchild = try #require(Int32(String(decoding: child.output, as: UTF8.self).dropLast()))
      #expect(kill(grandchild, 0) == 0)
      child.sendToGroup(SIGKILL)
      #expect(ProcessProbes.waitForEnd(of: grandchild))
    }

    @Test("Cancelling the task that runs a child ends the child's group")
    func cancellation() async throws {
      let lines = OutputLines()
      let started = AsyncStream<Int32>.makeStream()
      let run = Task {
        let child = try ChildProcess(.shell("echo $$; exec sleep 60"), output: .capture, onOutput: lines.handler)
        started.continuation.yield(child.pid)
        return await withTaskCancellationHandler {
          await child.wait()
        } onCancel: {
          child.terminate()
        }
      }
      var iterator = started.stream.makeAsyncIterator()
      let pid = try #require(await iterator.next())
      #expect(await lines.next() == String(pid))
      run.cancel()
      #expect(try await run.value == .signalled(SIGTERM))
      // And through run(_:): cancelled before it even starts waiting.
      let cancelled = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await ChildProcess.run(.shell("exec sleep 60"))
      }
      #expect(try await cancelled.value.termination == .signalled(SIGTERM))
    }

    @Test("Dropping a ChildProcess whose child runs kills the child's group")
    func droppedChild() async throws {
      let lines = OutputLines()
      var child: ChildProcess? = try ChildProcess(
        .shell("sleep 60 & echo $$ $!; wait"), output: .capture, onOutput: lines.handler)
      let pids = try #require(await lines.next()).split(separator: " ").compactMap { Int32($0) }
      #expect(pids.count == 2 && pids[0] == child?.pid)
      child = nil
      for pid in pids { #expect(ProcessProbes.waitForEnd(of: pid)) }
    }

    @Test("A child ends when the process that started it is killed")
    func endsWithParent() async throws {
      let probe = try ChildProcess(
        ChildCommand(ProcessProbes.executable("SpawnProbe"), arguments: ["exec sleep 60"]), output: .capture)
      #expect(await probe.wait() == .signalled(SIGKILL))
      let orphan = try #require(Int32(String(decoding: probe.output, as: UTF8.self).dropLast()))
      #expect(ProcessProbes.waitForEnd(of: orphan))
    }

    @Test("What runs under a pseudo-terminal ends when the process that started the terminal is killed")
    func underAPseudoTerminal() async throws {
      // As the command's pty tests run `countdown`: `script` makes the terminal, a shell writes its pid
      // and becomes the program. Killing the probe kills `script` (its child), which hangs the
      // terminal up: the program gets SIGHUP.
      let file = FileManager.default.temporaryDirectory.appending(path: "spawn-pty-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: file) }
      let program = "sh -c \"echo \\$\\$ > \(file).tmp; mv \(file).tmp \(file); exec sleep 60\""
      let script = "exec script --quiet --return --flush --echo never --command '\(program)' /dev/null"
      let probe = try ChildProcess(
        ChildCommand(ProcessProbes.executable("SpawnProbe"), arguments: [script, file]), output: .capture)
      #expect(await probe.wait() == .signalled(SIGKILL))
      let pid = try #require(Int32(try String(contentsOfFile: file, encoding: .utf8).dropLast()))
      #expect(ProcessProbes.waitForEnd(of: pid))
    }

    @Test("1,000 short children in a row leave no descriptor and no zombie")
    func thousandChildren() async throws {
      // In a process of its own (SpawnProbe): this one's other tests open descriptors at the same time.
      let probe = try await ChildProcess.run(
        ChildCommand(ProcessProbes.executable("SpawnProbe"), arguments: ["--children", "1000"]))
      #expect(probe.termination == .exited(0), "\(probe.outputText)")
      let fields = probe.outputText.split(whereSeparator: \.isWhitespace)
      try #require(fields.count == 5 && fields[0] == "descriptors" && fields[3] == "zombies", "\(probe.outputText)")
      let numbers = try [fields[1], fields[2], fields[4]].map { try #require(ProcessProbes.number($0)) }
      // The last child's wake pipe closes when its storage goes, which can be just after `run` returned:
      // one child's descriptors (fewer than 8) may still be open; a leak of one in fifty children is 20.
      #expect(numbers[1] - numbers[0] < 8, "descriptors before and after the children")
      #expect(numbers[2] == 0, "zombie children")
    }

    /// The hexadecimal mask on the `name:` line of a /proc status file.
    static func mask(_ name: String, in status: String) -> UInt64 {
      let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
      return line.flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
        ?? .max
    }
  #endif
}
