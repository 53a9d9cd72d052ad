import Spawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Two probes for SpawnTests, each a process of its own so that nothing else runs in it:
//
// `SpawnProbe SCRIPT [FILE]`: starts `sh -c SCRIPT` through ChildProcess (ending with its parent), prints
// the child's pid, waits until FILE exists (at most 30 s) if one is named, then ends itself with SIGKILL,
// the way a crashed test process ends: the tests check that the child (and what runs under a
// pseudo-terminal the child made) does not outlive it.
//
// `SpawnProbe --children N`: runs N short children (`/bin/echo I`) one after the other, checks each one's
// output, and prints `descriptors BEFORE AFTER zombies Z`: the descriptors this process had open before the
// children (after a first one, which may open what Spawn keeps for good) and after them (the last child's
// may still be closing), and its children that ended and were not reaped. The tests' own process cannot count so: its other tests open and close
// descriptors at the same time.
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--children" {
  guard let count = Int(arguments[2]), count > 0 else {
    print("usage: SpawnProbe --children N (N > 0)")
    exit(64)
  }
  do {
    _ = try await ChildProcess.run(ChildCommand("/bin/echo", arguments: ["first"]))
    let before = openDescriptors()
    for index in 0..<count {
      let result = try await ChildProcess.run(ChildCommand("/bin/echo", arguments: [String(index)]))
      guard result.outputText == "\(index)\n" else {
        print("SpawnProbe: child \(index) wrote \(result.outputText.debugDescription)")
        exit(1)
      }
    }
    print("descriptors \(before) \(openDescriptors()) zombies \(zombieChildren())")
    exit(0)
  } catch {
    print("SpawnProbe: \(error)")
    exit(1)
  }
}
guard (2...3).contains(arguments.count) else {
  print("usage: SpawnProbe SCRIPT [FILE] | SpawnProbe --children N")
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

/// The number of descriptors this process has open (the entries of /proc/self/fd, less the one that
/// reads it).
func openDescriptors() -> Int {
  guard let directory = opendir("/proc/self/fd") else { return -1 }
  defer { closedir(directory) }
  var count = 0
  while let entry = readdir(directory) {
    let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
    if !isDot { count += 1 }
  }
  return count - 1
}

/// The number of this process's children that ended and were not reaped.
func zombieChildren() -> Int {
  guard let directory = opendir("/proc") else { return -1 }
  defer { closedir(directory) }
  let me = getpid()
  var count = 0
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    guard !name.isEmpty, name.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { continue }
    guard let file = fopen("/proc/\(name)/stat", "r") else { continue }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { continue }
    let stat = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // After "pid (name) ": the state, then the parent's pid.
    guard let close = stat.lastIndex(of: ")") else { continue }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    if fields.count > 1, fields[0] == "Z", fields[1] == "\(me)" { count += 1 }
  }
  return count
}
