// The board's side of slots: which slots show which row, and the one engine binding per row that
// hands each change to all of them.

extension CountdownBoard {
  /// Binds a slot to row `id` (or to a row yet to come) beside any other slot showing it, and renders
  /// it at once if it is there.
  @MainActor
  func bind(_ id: ID, token: UInt64, progressSteps: Int?, render: @escaping @MainActor (Snapshot) -> Void) {
    let entry = SlotEntry<Display.Value, C.Instant>(render: render)
    withRowsOnMain { state, rows, now in
      rows.bindings[id, default: RowSlots()].slots.append(
        RowSlots.Slot(token: token, progressSteps: progressSteps, entry: entry))
      guard let row = rows.row(of: id) else { return }
      installSlots(of: id, row: row, in: &state, &rows, at: now)
    }
  }

  /// Ends the binding with `token` of row `id`; the row's other slots go on showing it.
  func unbind(_ id: ID, token: UInt64) {
    withRows { state, rows, now in
      guard var slots = rows.bindings[id], let index = slots.slots.firstIndex(where: { $0.token == token }) else {
        return
      }
      slots.slots.remove(at: index)
      let row = rows.row(of: id)
      guard !slots.slots.isEmpty else {
        rows.bindings[id] = nil
        if let row { state.core.unbind(row, at: now, into: &state.effects) }
        return
      }
      rows.bindings[id] = slots
      if let row { installSlots(of: id, row: row, in: &state, &rows, at: now) }
    }
  }

  /// ``place(_:_:in:_:at:)`` for a new row that slots wait for: added bound to them, so that
  /// they show it before its completion (if it is over already) is reported.
  @usableFromInline
  func placeBound(
    _ id: ID, _ spec: EngineCore.RowSpec, in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick
  ) {
    let binding = bindSlots(of: id, total: spec.total ?? -1, in: &state, &rows)
    rows.insert(id, row: state.core.add(spec, binding: binding, at: now, into: &state.effects))
  }

  /// Gives engine row `row` (the board's row `id`) a new binding to the slots that show it. The binding
  /// it replaces is cancelled (what was on its way to it is dropped), and the row is rendered at once;
  /// each slot renders only what looks different to it.
  @usableFromInline
  func installSlots(of id: ID, row: Int, in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick) {
    guard let binding = bindSlots(of: id, total: state.core.rows.totals[row], in: &state, &rows) else { return }
    state.core.bind(row, to: binding, at: now, into: &state.effects)
  }

  /// A new engine binding for the slots of row `id`, whose total is `total` ticks (negative: none): one
  /// subscriber that hands each change to every slot, stepping through each ring a slot draws over the
  /// row's total. `nil` when no slot shows the row.
  func bindSlots(of id: ID, total: Tick, in state: inout EngineState<C>, _ rows: inout Rows) -> Bindings.Binding? {
    guard var slots = rows.bindings[id] else { return nil }
    let rings = slots.rings(forTotal: total)
    slots.rings = rings
    rows.bindings[id] = slots
    // Each slot's entry, with the index of its ring among the binding's.
    let targets = slots.slots.map { slot in
      (slot.entry, slot.progressSteps.flatMap { rings?.steps.firstIndex(of: $0) })
    }
    guard let rings else {
      let subscriber = SnapshotSubscriber<Display, C.Instant>(
        table: table,
        onChange: { snapshot in
          for (entry, _) in targets { entry.deliver(snapshot, step: nil) }
        }, onFinish: nil)
      return state.install(subscriber, in: displayClass)
    }
    let total = Ticks.duration(rings.total)
    let ringed = RingedDisplay(text: display, rings: rings.steps.map { ProgressDisplay(steps: $0, total: total) })
    let (ringedClass, ringedTable) = state.displayClass(for: ringed, plan: nil, origin: engine.origin)
    let subscriber = SnapshotSubscriber<RingedDisplay<Display>, C.Instant>(
      table: ringedTable,
      onChange: { ringed in
        let snapshot = Snapshot(
          value: ringed.value.text, remaining: ringed.remaining, progress: ringed.progress,
          isPaused: ringed.isPaused, isFinished: ringed.isFinished, instant: ringed.instant)
        for (entry, ring) in targets { entry.deliver(snapshot, step: ring.map(ringed.value.step(ofRing:))) }
      }, onFinish: nil)
    return state.install(subscriber, in: ringedClass)
  }

  /// Binds row `id` again if the rings its slots draw changed with its countdown (a new total).
  @usableFromInline
  func renewRing(of id: ID, row: Int, in state: inout EngineState<C>, _ rows: inout Rows, at now: Tick) {
    guard let slots = rows.bindings[id], slots.rings != slots.rings(forTotal: state.core.rows.totals[row]) else {
      return
    }
    installSlots(of: id, row: row, in: &state, &rows, at: now)
  }
}
