import Spawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `SpawnProbe SCRIPT`: starts `sh -c SCRIPT` through ChildProcess (ending with its parent), prints the
// child's pid, then ends itself with SIGKILL, the way a crashed test process ends: for SpawnTests,
// which check that the child does not outlive it.
guard CommandLine.arguments.count == 2 else {
  print("usage: SpawnProbe SCRIPT")
  exit(64)
}
do {
  let child = try ChildProcess(.shell(CommandLine.arguments[1]))
  let line = Array("\(child.pid)\n".utf8)
  _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  kill(getpid(), SIGKILL)
} catch {
  print("SpawnProbe: \(error)")
  exit(1)
}
