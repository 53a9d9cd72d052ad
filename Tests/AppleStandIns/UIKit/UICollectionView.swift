// STAND-IN, NOT APPLE'S UIKIT: a collection view and its diffable data source, as far as the
// documentation's examples use them, with Apple's signatures. Nothing here draws: the data source
// records what it was asked to reconfigure. See ../README.md.
#if os(Linux)
  extension IndexPath {
    /// An index path to an item in a section (UIKit's extension of `IndexPath`).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The item's position in its section.
    public var item: Int { count > 1 ? self[1] : 0 }
    /// The section's position.
    public var section: Int { count > 0 ? self[0] : 0 }
  }

  /// A collection view (stand-in of `UICollectionView`).
  @MainActor open class UICollectionView: UIView {
    /// The index paths of the items on screen (set by hand in the stand-in).
    open var indexPathsForVisibleItems: [IndexPath] = []
    /// How the collection view lays out its items.
    open var collectionViewLayout: UICollectionViewLayout

    /// A collection view laid out by `layout`.
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
      collectionViewLayout = layout
      super.init(frame: frame)
    }

    /// A collection view from an archive (the stand-in reads none).
    public required init?(coder: NSCoder) { nil }

    /// A collection view with an empty frame and layout (as `UIView`'s `init()` makes one on Apple
    /// platforms, where it then needs a layout before it shows anything).
    public convenience init() { self.init(frame: .zero, collectionViewLayout: UICollectionViewLayout()) }
  }

  /// The items of a collection view by section (stand-in of `NSDiffableDataSourceSnapshot`).
  public struct NSDiffableDataSourceSnapshot<
    SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable
  >:
    Sendable
  {
    /// The items, in order (one section is enough for the examples).
    public var itemIdentifiers: [ItemIdentifierType] = []
    /// The items marked for reconfiguring, in order.
    public private(set) var reconfiguredItemIdentifiers: [ItemIdentifierType] = []
    /// An empty snapshot.
    public init() {}
    /// Appends items.
    public mutating func appendItems(_ identifiers: [ItemIdentifierType]) { itemIdentifiers += identifiers }
    /// Marks items whose cells must be configured again, keeping the cells.
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {
      reconfiguredItemIdentifiers += identifiers
    }
  }

  /// A collection view's data source by item identifiers (stand-in of
  /// `UICollectionViewDiffableDataSource`).
  @MainActor
  open class UICollectionViewDiffableDataSource<
    SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable
  > {
    private var current = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>()
    /// Every snapshot applied, in order (the stand-in's record of what it was asked to do).
    public private(set) var applied: [NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>] = []
    /// A data source for `collectionView` (the stand-in takes no cell provider).
    public init(collectionView: UICollectionView) {}
    /// The items shown now.
    open func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> {
      var snapshot = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>()
      snapshot.appendItems(current.itemIdentifiers)
      return snapshot
    }
    /// Shows `snapshot`.
    open func apply(
      _ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
      animatingDifferences: Bool = true
    ) {
      current = snapshot
      applied.append(snapshot)
    }
    /// The item at `indexPath`, if there is one.
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
      current.itemIdentifiers.indices.contains(indexPath.item) ? current.itemIdentifiers[indexPath.item] : nil
    }
  }
#endif
