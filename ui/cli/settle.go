package cli

import (
	"context"
	"runtime"
	"time"
)

// startSettle is when the dashboard's start is over: package
// initialisation, the demo's two-minute pre-roll and its diagnosis, the
// first frames. The start's last collection finds ~7 MB live, of which
// ~2 MB is the start's own, and Go sets its next goal from that (14 MB),
// which the heap grows into for the next 20 s and whose pages it keeps;
// one collection here sets the goal from what the dashboard holds while
// it watches (9–10 MB), the runtime's scavenger hands the pages above it
// back, and the peak RSS is ~3 MB lower (docs/benchmarks.md, "The
// dashboard's memory: the peak"; debug.FreeOSMemory, which hands them
// back at once, measured the same).
const startSettle = time.Second

// settleStart calls free once, after, unless ctx ends first.
func settleStart(ctx context.Context, after time.Duration, free func()) {
	t := time.NewTimer(after)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
		free()
	}
}

// startOver is what the settle does, and what the dashboard does once the
// pre-roll is pushed: the start's garbage collected, so the heap's goal
// is set from what is left, and the pages of code and tables the start
// alone ran unmapped (releaseStartPages); with the release before the
// pre-roll they take the 40 s peak RSS from ~29 to ~24 MB
// (docs/benchmarks.md, "The dashboard's memory: the start's pages").
func startOver() {
	runtime.GC()
	releaseStartPages()
}
