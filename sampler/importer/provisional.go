package importer

// provisionalIndex is the index a reader gives the nth GPU it knows only
// by address or by nothing (kernel lines, lspci, nvidia-smi's error
// lines): negative, "not known here", so placeUnknown (merge.go) gives it
// an index after the GPUs a table numbers; distinct per GPU, so each
// one's evidence lines stay apart. One decision, kept in one place.
func provisionalIndex(n int) int { return -1 - n }
