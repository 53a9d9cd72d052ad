#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether `path` names a regular file the process may execute.
func isExecutableFile(_ path: String) -> Bool {
  var info = stat()
  guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
  return access(path, X_OK) == 0
}

/// The description of `errno` value `code`.
func errorText(_ code: Int32) -> String {
  String(cString: strerror(code))
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings, valid during the call.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
  let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
  for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
  pointers[strings.count] = nil
  defer {
    for index in strings.indices { free(pointers[index]) }
    pointers.deallocate()
  }
  return body(pointers)
}

/// Writes one byte to `descriptor` (a pipe's write end whose read end stays open).
func writeByte(to descriptor: Int32) {
  var byte: UInt8 = 1
  while write(descriptor, &byte, 1) < 0 && errno == EINTR {}
}
