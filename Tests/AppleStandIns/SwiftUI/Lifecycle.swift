// STAND-IN, NOT APPLE'S SWIFTUI: a view's disappearance, as the documentation's list rows use it, with
// Apple's signature. Nothing is ever called. See ../README.md.
#if os(Linux)
  extension View {
    /// Runs `action` when the view disappears.
    public func onDisappear(perform action: (() -> Void)? = nil) -> ModifiedContent<Self> {
      ModifiedContent(content: self)
    }
  }
#endif
