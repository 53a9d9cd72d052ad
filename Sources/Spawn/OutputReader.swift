import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loop of a child's reader thread: reads its captured streams as data arrives, until each ends,
/// or until the child has ended and what it wrote before has been read (processes it left running may
/// keep a stream open for ever).
struct OutputReader {
  var streams: [(stream: ChildProcess.Stream, descriptor: Int32)]
  var wake: (read: Int32, write: Int32)?

  func run(into storage: ChildStorage) {
    var open = streams
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var childEnded = false
    while !open.isEmpty && !childEnded {
      var descriptors = open.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
      if let wake { descriptors.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
      if ready < 0 {
        if errno == EINTR { continue }
        break
      }
      if wake != nil, descriptors[open.count].revents != 0 { childEnded = true }
      var index = 0
      for polled in descriptors.prefix(open.count) {
        // After the child's end, read what it left in every stream, ready or not.
        if polled.revents != 0 || childEnded, !drain(open[index], into: storage, buffer: &buffer) {
          close(open[index].descriptor)
          open.remove(at: index)
        } else {
          index += 1
        }
      }
    }
    for (_, descriptor) in open { close(descriptor) }
    storage.readerFinished()
  }

  /// Reads what `stream` holds now; returns false at its end (or on an error).
  private func drain(
    _ stream: (stream: ChildProcess.Stream, descriptor: Int32), into storage: ChildStorage, buffer: inout [UInt8]
  ) -> Bool {
    while true {
      let count = buffer.withUnsafeMutableBytes { read(stream.descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        storage.received(Data(buffer[0..<count]), from: stream.stream)
      } else if count == 0 {
        return false
      } else if errno == EINTR {
        continue
      } else {
        return errno == EAGAIN || errno == EWOULDBLOCK
      }
    }
  }
}
