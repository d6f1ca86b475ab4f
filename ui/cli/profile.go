//go:build pprof

package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileFlags are the hidden --cpuprofile and --memprofile every command
// takes, so the cost of record, report, compare and the fleet can be
// profiled as the dashboard's is (docs/benchmarks.md, "Commands").
type profileFlags struct{ cpu, mem, memlog string }

// addProfiling gives root's whole tree the flags and wraps each command's
// RunE to write the profiles around it, whatever it returns.
func addProfiling(root *cobra.Command) {
	var p profileFlags
	fl := root.PersistentFlags()
	fl.StringVar(&p.cpu, "cpuprofile", "", "write a Go CPU profile to this file (for docs/benchmarks.md)")
	fl.StringVar(&p.mem, "memprofile", "", "write a Go heap profile to this file when the command ends")
	_ = fl.MarkHidden("cpuprofile")
	fl.StringVar(&p.memlog, "memlog", "", "write the runtime's memory classes every 100 ms to this file")
	_ = fl.MarkHidden("memprofile")
	_ = fl.MarkHidden("memlog")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(c *cobra.Command, args []string) error {
				return p.around(func() error { return run(c, args) })
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// around runs fn between starting the CPU profile and writing the heap one.
func (p profileFlags) around(fn func() error) error {
	if p.cpu != "" {
		f, err := os.Create(p.cpu)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
		}
		defer pprof.StopCPUProfile()
	}
	if p.memlog != "" {
		stop, lerr := logMemory(p.memlog)
		if lerr != nil {
			return lerr
		}
		defer stop()
	}
	err := fn()
	if p.mem != "" {
		f, ferr := os.Create(p.mem)
		if ferr != nil {
			return fmt.Errorf("--memprofile: %w", ferr)
		}
		defer f.Close()
		runtime.GC() // the heap as it stands, not garbage awaiting collection
		if werr := pprof.Lookup("allocs").WriteTo(f, 0); werr != nil && err == nil {
			err = fmt.Errorf("--memprofile %s: %w", p.mem, werr)
		}
	}
	return err
}
