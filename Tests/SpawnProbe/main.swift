import Spawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `SpawnProbe SCRIPT [FILE]`: starts `sh -c SCRIPT` through ChildProcess (ending with its parent),
// prints the child's pid, waits until FILE exists (at most 30 s) if one is named, then ends itself with
// SIGKILL, the way a crashed test process ends: for SpawnTests, which check that the child (and what
// runs under a pseudo-terminal the child made) does not outlive it.
let arguments = CommandLine.arguments
guard (2...3).contains(arguments.count) else {
  print("usage: SpawnProbe SCRIPT [FILE]")
  exit(64)
}
do {
  let child = try ChildProcess(.shell(arguments[1]))
  let line = Array("\(child.pid)\n".utf8)
  _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  if arguments.count == 3 {
    for _ in 0..<3_000 where access(arguments[2], F_OK) != 0 { usleep(10_000) }
  }
  kill(getpid(), SIGKILL)
} catch {
  print("SpawnProbe: \(error)")
  exit(1)
}
