extension DeadlineTable {
  /// The most rows a statement's notifications carry; a statement that writes or deletes more sends its
  /// transaction's id too, and each follower reads those rows itself (one query instead of hundreds of
  /// notifications, each copied to every listener; the first rows' notifications, sent before the
  /// function knew, are harmless: a row read later is never older).
  static let rowsPerStatementInPayloads = 1_000

  /// A row whose line in a notification would be longer (a long title) is read by the followers instead.
  static let longestLineInPayloads = 2_000

  /// A notification's lines add up to at most this many bytes; with a header of at most 45 bytes
  /// (`u`, a transaction id, a statement number, a chunk number), it stays below PostgreSQL's limit of
  /// 8,000 bytes.
  static let payloadBytes = 7_800

  /// The function the statement triggers run: it logs deleted ids, and sends what the statement changed
  /// on the table's channel (read from `<name>_meta`; see ``ChangeNotification`` for the payloads). It runs
  /// as the table's owner (`SECURITY DEFINER`, so that writers need no privilege on the log of deleted ids
  /// or on `<name>_meta`), with `search_path` pinned and every table named with its schema.
  ///
  /// Each payload names its transaction and is unique within it (a statement number kept in a
  /// transaction-local setting, and a chunk number): PostgreSQL delivers only one of identical payloads
  /// sent in one transaction, which would drop a row's third state if it equalled its first. Dates travel
  /// as `timestamptz_send` in hex (microseconds since 2000, exact, infinity included) and
  /// `paused_remaining` as `float8send` in hex, so a row decodes to exactly the values a query returns,
  /// whatever the writing session's date style, time zone or float settings.
  ///
  /// The function is one loop over the statement's rows (at most one more than
  /// ``rowsPerStatementInPayloads``), filling a notification until the next line would not fit: a
  /// statement with a query of its own per step (a window over the rows, a grouping) costs several times
  /// more, since a query on a transition table is planned again at every call.
  var notifyFunction: String {
    """
    CREATE OR REPLACE FUNCTION \(qualified("\(name)_notify"))() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = \(Self.pinnedPath) AS $countdown$\(notifyBody)$countdown$
    """
  }

  /// The body of ``notifyFunction``, as `pg_proc.prosrc` holds it.
  var notifyBody: String {
    let hex = { (column: String, send: String) in "coalesce(encode(\(send)(\(column)), 'hex'), '')" }
    let line = [
      "E'\\n' || id", hex("ends_at", "timestamptz_send"), hex("paused_remaining", "float8send"),
      hex("event_at", "timestamptz_send"), hex("expired_at", "timestamptz_send"),
      hex("lease_until", "timestamptz_send"), hex("followed_up_at", "timestamptz_send"),
      hex("discarded_at", "timestamptz_send"), "expiry_attempts",
      "char_length(title) || ':' || title",
    ].joined(separator: " || ',' || ")
    let (limit, longest, bytes) = (Self.rowsPerStatementInPayloads, Self.longestLineInPayloads, Self.payloadBytes)
    // Sends the lines gathered so far (`kind` is u or d) and starts the next chunk.
    let flush = { (kind: String) in
      """
      PERFORM pg_notify(channel, '\(kind)' || head || chunk || body);
              chunk := chunk + 1;
              body := '';
      """
    }
    return """

      DECLARE
        channel text;
        head text;
        body text := '';
        line text;
        rows int := 0;
        chunk int := 0;
        by_transaction boolean := false;
      BEGIN
        SELECT m.channel INTO STRICT channel FROM \(meta) m;
        head := pg_current_xact_id()::text || '.' || set_config('countdown.notify_statement',
          (coalesce(nullif(current_setting('countdown.notify_statement', true), ''), '0')::int + 1)::text, true)
          || '.';
        IF TG_OP = 'DELETE' THEN
          INSERT INTO \(removed) (id, removed_xid, removed_at) SELECT id, pg_current_xact_id(), now() FROM removed_rows
            ON CONFLICT (id) DO UPDATE SET removed_xid = EXCLUDED.removed_xid, removed_at = EXCLUDED.removed_at;
          IF NOT FOUND THEN RETURN NULL; END IF;
          FOR line IN SELECT E'\\n' || id FROM removed_rows LIMIT \(limit + 1) LOOP
            rows := rows + 1;
            IF rows > \(limit) THEN
              by_transaction := true;
              EXIT;
            END IF;
            IF octet_length(body) + octet_length(line) > \(bytes) THEN
              \(flush("d"))
            END IF;
            body := body || line;
          END LOOP;
          IF body <> '' THEN PERFORM pg_notify(channel, 'd' || head || chunk || body); END IF;
        ELSIF TG_OP = 'TRUNCATE' THEN
          INSERT INTO \(removed) (id, removed_xid, removed_at) SELECT id, pg_current_xact_id(), now() FROM \(table)
            ON CONFLICT (id) DO UPDATE SET removed_xid = EXCLUDED.removed_xid, removed_at = EXCLUDED.removed_at;
          by_transaction := true;
        ELSE
          FOR line IN SELECT \(line) FROM changed_rows LIMIT \(limit + 1) LOOP
            rows := rows + 1;
            IF rows > \(limit) THEN
              by_transaction := true;
              EXIT;
            ELSIF octet_length(line) > \(longest) THEN
              by_transaction := true;
            ELSE
              IF octet_length(body) + octet_length(line) > \(bytes) THEN
                \(flush("u"))
              END IF;
              body := body || line;
            END IF;
          END LOOP;
          IF body <> '' THEN PERFORM pg_notify(channel, 'u' || head || chunk || body); END IF;
        END IF;
        IF by_transaction THEN
          PERFORM pg_notify(channel, pg_current_xact_id()::text);
        END IF;
        RETURN NULL;
      END
      """
  }
}
