// STAND-IN, NOT APPLE'S WIDGETKIT: the few declarations the documentation's examples use, with
// Apple's signatures, so that those examples compile on Linux. See ../README.md.
#if os(Linux)
  @_exported public import Foundation  // as the framework does

  /// A widget's state at one date (stand-in of `TimelineEntry`).
  public protocol TimelineEntry {
    /// The date from which WidgetKit shows the entry.
    var date: Date { get }
  }

  /// What the system tells a timeline provider (stand-in of `TimelineProviderContext`).
  public struct TimelineProviderContext: Sendable {
    /// Whether the widget is shown in the gallery.
    public var isPreview: Bool
    /// A context (the system makes these; public here so that tests can call a provider).
    public init(isPreview: Bool) { self.isPreview = isPreview }
  }

  /// When WidgetKit asks for a new timeline (stand-in of `TimelineReloadPolicy`).
  public struct TimelineReloadPolicy: Sendable {
    enum Kind: Sendable {
      case atEnd, never
      case after(Date)
    }
    let kind: Kind
    /// After the last entry's date.
    public static let atEnd = TimelineReloadPolicy(kind: .atEnd)
    /// Only when the app asks.
    public static let never = TimelineReloadPolicy(kind: .never)
    /// After `date`.
    public static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy(kind: .after(date)) }
  }

  /// A widget's entries and when to ask again (stand-in of WidgetKit's `Timeline`).
  public struct Timeline<EntryType: TimelineEntry> {
    /// The entries, by date.
    public let entries: [EntryType]
    /// When to ask for a new timeline.
    public let policy: TimelineReloadPolicy
    /// A timeline of `entries`.
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
      self.entries = entries
      self.policy = policy
    }
  }

  /// Gives WidgetKit a widget's entries (stand-in of `TimelineProvider`).
  public protocol TimelineProvider {
    /// The entry type.
    associatedtype Entry: TimelineEntry
    /// What the system tells the provider.
    typealias Context = TimelineProviderContext
    /// An entry to show while the real one is being made.
    func placeholder(in context: Context) -> Entry
    /// The entry to show now, for the widget gallery.
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    /// The entries from now on.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
  }
#endif
