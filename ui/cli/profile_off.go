//go:build !pprof

package cli

import "github.com/spf13/cobra"

// addProfiling: without the pprof build tag the binary carries no profiler
// (runtime/pprof and what it links cost the release binary ~100 KB of its
// 20 MB budget); build with `go build -tags pprof` (make profile) for the
// hidden --cpuprofile and --memprofile (profile.go).
func addProfiling(*cobra.Command) {}
