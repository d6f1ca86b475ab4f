//go:build pprof

package cli

import (
	"bufio"
	"fmt"
	"os"
	"runtime/metrics"
	"time"
)

// memClasses are what --memlog writes, one line every 100 ms: where the
// Go runtime's share of the RSS is at each moment of a run, beside the
// process's own smaps (docs/benchmarks.md, "The dashboard's memory: the
// peak").
var memClasses = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/metadata/other:bytes",
	"/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/os-stacks:bytes",
	"/memory/classes/other:bytes",
	"/memory/classes/profiling/buckets:bytes",
	"/gc/heap/goal:bytes",
	"/gc/heap/live:bytes",
	"/gc/cycles/total:gc-cycles",
}

// logMemory samples memClasses every 100 ms into path until stop.
func logMemory(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--memlog: %w", err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "ms")
	for _, c := range memClasses {
		fmt.Fprint(w, " ", c)
	}
	fmt.Fprintln(w)
	samples := make([]metrics.Sample, len(memClasses))
	for i, c := range memClasses {
		samples[i].Name = c
	}
	done, quit := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(samples)
			fmt.Fprint(w, time.Since(start).Milliseconds())
			for _, s := range samples {
				fmt.Fprint(w, " ", s.Value.Uint64())
			}
			fmt.Fprintln(w)
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		w.Flush()
		f.Close()
	}, nil
}
