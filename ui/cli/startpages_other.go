//go:build !linux

package cli

// releaseStartPages does nothing where the dashboard's start pages are
// not measured (docs/benchmarks.md, "The dashboard's memory: the start's
// pages").
func releaseStartPages() {}
