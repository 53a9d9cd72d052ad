import CoreMetrics
import Foundation
import Prometheus

/// The worker's metrics in Prometheus's text format, written to a file every `interval` (replaced
/// whole, so that a reader never sees half of it): what node_exporter's textfile collector reads, or
/// any scraper that can read a file.
enum MetricsExport {
  /// Makes the process's metrics go to a Prometheus registry, and writes it to `path` every
  /// `interval` until the task is cancelled (and once more then).
  static func start(writingTo path: String, every interval: Duration = .seconds(10)) -> Task<Void, Never> {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        write(registry.emitToBuffer(), to: path)
      }
    }
  }

  /// Writes `bytes` to a file beside `path`, then renames it over `path`.
  private static func write(_ bytes: [UInt8], to path: String) {
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
    _ = rename(temporary, path)
  }
}
