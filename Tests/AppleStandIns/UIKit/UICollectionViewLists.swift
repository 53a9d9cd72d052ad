// STAND-IN, NOT APPLE'S UIKIT: a collection view list (list layout, list cells with content
// configurations and accessories, cell registrations), as far as the documentation's examples use it,
// with Apple's signatures. Nothing is laid out or drawn, and no cell is ever dequeued: the examples
// that use these are compiled, not run. See ../README.md.
#if os(Linux)
  /// How a collection view lays out its items (stand-in of `UICollectionViewLayout`).
  @MainActor open class UICollectionViewLayout {
    /// A layout.
    public init() {}
  }

  /// A layout of sections, groups and items (stand-in of `UICollectionViewCompositionalLayout`).
  @MainActor open class UICollectionViewCompositionalLayout: UICollectionViewLayout {
    /// A layout of list sections only, each as `configuration` says.
    public static func list(using configuration: UICollectionLayoutListConfiguration)
      -> UICollectionViewCompositionalLayout
    { UICollectionViewCompositionalLayout() }
  }

  /// A list layout's configuration (stand-in of `UICollectionLayoutListConfiguration`).
  public struct UICollectionLayoutListConfiguration {
    /// The list's overall appearance.
    public enum Appearance {
      /// The plain list appearance.
      case plain
      /// The grouped list appearance.
      case grouped
      /// The inset grouped list appearance.
      case insetGrouped
      /// The sidebar appearance.
      case sidebar
      /// The plain sidebar appearance.
      case sidebarPlain
    }

    /// The list's overall appearance.
    public private(set) var appearance: Appearance

    /// A list configuration with `appearance`.
    public init(appearance: Appearance) { self.appearance = appearance }
  }

  /// What a cell's content view shows (stand-in of `UIContentConfiguration`; the stand-in declares none
  /// of its requirements, as no example conforms to it).
  @MainActor public protocol UIContentConfiguration {}

  /// The content of a list cell: text, secondary text and system styling (stand-in of
  /// `UIListContentConfiguration`).
  public struct UIListContentConfiguration: UIContentConfiguration {
    /// The primary text.
    public var text: String?
    /// The secondary text.
    public var secondaryText: String?
  }

  /// A cell's decoration on its leading or trailing edge (stand-in of `UICellAccessory`).
  @MainActor public struct UICellAccessory {
    /// When an accessory shows.
    public enum DisplayedState {
      /// Always.
      case always
      /// Only while the cell is being edited.
      case whenEditing
      /// Only while the cell is not being edited.
      case whenNotEditing
    }

    /// How wide the layout makes an accessory.
    public enum LayoutDimension {
      /// The accessory's own width.
      case actual
      /// The system's standard width.
      case standard
      /// This many points.
      case custom(CGFloat)
    }

    /// Where an accessory shows.
    public enum Placement {
      /// The index of the accessory among the others on its edge.
      public typealias Position = ([UICellAccessory]) -> Int
      /// On the leading edge.
      case leading(displayed: DisplayedState = .always, at: Position = { $0.count })
      /// On the trailing edge.
      case trailing(displayed: DisplayedState = .always, at: Position = { $0.count })
    }

    /// A custom view as an accessory.
    public struct CustomViewConfiguration {
      /// The view shown.
      public let customView: UIView
      /// Where it shows.
      public var placement: Placement

      /// A configuration of `customView` at `placement`.
      public init(
        customView: UIView, placement: Placement, isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil,
        tintColor: UIColor? = nil, maintainsFixedSize: Bool? = nil
      ) {
        self.customView = customView
        self.placement = placement
      }
    }

    let customView: UIView?

    /// A custom view accessory.
    public static func customView(configuration: CustomViewConfiguration) -> UICellAccessory {
      UICellAccessory(customView: configuration.customView)
    }
  }

  /// A cell of a list (stand-in of `UICollectionViewListCell`).
  @MainActor open class UICollectionViewListCell: UICollectionViewCell {
    /// The accessories shown on the cell's edges.
    open var accessories: [UICellAccessory] = []
    /// What the cell's content view shows.
    open var contentConfiguration: (any UIContentConfiguration)?
    /// A content configuration with the cell's default styling and no content.
    open func defaultContentConfiguration() -> UIListContentConfiguration { UIListContentConfiguration() }
  }

  extension UICollectionView {
    /// How cells of type `Cell` are made and configured for items of type `Item` (stand-in of
    /// `UICollectionView.CellRegistration`).
    @MainActor public struct CellRegistration<Cell: UICollectionViewCell, Item> {
      /// Configures a cell for an item at an index path.
      public typealias Handler = (Cell, IndexPath, Item) -> Void
      let handler: Handler

      /// A registration whose cells `handler` configures.
      public init(handler: @escaping Handler) { self.handler = handler }
    }

    /// A reusable cell of `registration` configured for `item` (the stand-in has no cells to give).
    public func dequeueConfiguredReusableCell<Cell, Item>(
      using registration: UICollectionView.CellRegistration<Cell, Item>, for indexPath: IndexPath, item: Item?
    ) -> Cell where Cell: UICollectionViewCell {
      preconditionFailure("The UIKit stand-in has no cells: the documentation's UIKit lists are compiled, not run")
    }
  }

  extension UICollectionViewDiffableDataSource {
    /// Makes and configures the cell for an item at an index path.
    public typealias CellProvider = (UICollectionView, IndexPath, ItemIdentifierType) -> UICollectionViewCell?

    /// A data source for `collectionView` whose cells `cellProvider` makes (the stand-in never calls
    /// it).
    public convenience init(collectionView: UICollectionView, cellProvider: @escaping CellProvider) {
      self.init(collectionView: collectionView)
    }
  }

  extension NSDiffableDataSourceSnapshot {
    /// Appends sections (the stand-in keeps one).
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {}
  }
#endif
