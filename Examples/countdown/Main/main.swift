import CountdownCommandLine

// `countdown` with no server support: `--db postgres://…` and `countdown expire` say which build has it.
await CommandEntry.main(server: nil)
