// The header does all the work.
