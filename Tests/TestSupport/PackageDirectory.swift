public import Foundation

/// The root package's directory: the nearest folder above `file` that holds a `Package.swift`, so
/// that a test reading the package's own files does not depend on how deep its file lies in `Tests`.
public func packageDirectory(of file: String = #filePath) -> URL {
  var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
  while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
    let parent = directory.deletingLastPathComponent()
    precondition(parent.path != directory.path, "No Package.swift above \(file)")
    directory = parent
  }
  return directory
}
