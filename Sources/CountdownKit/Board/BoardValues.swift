/// Which rows of a ``CountdownBoard`` the engine keeps a live value for.
///
/// A list that shows a few rows at a time binds cells to them through slots: the engine computes the
/// values of the rows shown, and a row nobody shows costs only its countdown. A grid, a dashboard or a
/// table that shows or sorts or counts *every* row needs every row's value; a closure per row would make
/// the engine call the app for each change, scattered over memory. With ``everyRow`` the engine keeps
/// each row's value in a column and hands the app, once per wake-up, the rows whose value changed, with
/// their values: rows counting down whole units are kept in groups by where in the unit they change, so
/// that a wake-up walks one contiguous group.
public enum BoardValues: Hashable, Sendable {
  /// Only the rows a slot shows (the default).
  case boundRows
  /// Every row: ``CountdownBoard/onChanges(_:)`` and ``CountdownBoard/changes()`` get each wake-up's
  /// changed rows, ``CountdownBoard/counts`` how many rows show each value.
  case everyRow
}
