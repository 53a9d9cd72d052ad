import CountdownCommandLine

// `countdown-pg`: the `countdown` command with PostgreSQL support (`--db postgres://…`, `countdown expire`).
await CommandEntry.main(server: PostgresServer())
