package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestSharedHostEscapedAndDrawnOnce: snapshots that share one host reading
// (--interval 100ms, sampler.HostEvery) draw what snapshots with a copy of
// it each draw, its control characters escaped, while the host pane is
// rendered again only for a new reading.
func TestSharedHostEscapedAndDrawnOnce(t *testing.T) {
	shared, copied := fixtureModelN(5, 8, 200, 50, nil), fixtureModelN(5, 8, 200, 50, nil)
	base := *shared.c.latest()
	host := *base.Host
	host.Procs = map[int]*sampler.Proc{}
	for pid, p := range base.Host.Procs {
		q := *p
		q.Cmdline = "python train.py\x1b[2J --evil"
		host.Procs[pid] = &q
	}
	host.CPU = sampler.Some(12)
	cur := &host
	for i := range 12 {
		s := base
		s.Time = base.Time.Add(time.Duration(i+1) * 100 * time.Millisecond)
		if i == 8 {
			h := *cur
			h.CPU = sampler.Some(97) // a new reading
			cur = &h
		}
		s.Host = cur
		shared = push(shared, s)
		if renewed := i == 0 || i == 8; shared.host.valid == renewed {
			t.Fatalf("snapshot %d: host pane valid=%v, want %v (rendered again only for a new reading)", i, shared.host.valid, !renewed)
		}
		own := *cur
		s.Host = &own
		copied = push(copied, s)
		if got, want := shared.View(), copied.View(); got != want {
			t.Fatalf("snapshot %d: the shared host draws\n%s\nwhere a copy draws\n%s", i, got, want)
		}
		if strings.Contains(shared.View(), "\x1b[2J") {
			t.Fatalf("snapshot %d: a control character reached the screen", i)
		}
		if cmd := shared.c.latest().Host.Procs[firstPID(&host)].Cmdline; !strings.Contains(cmd, "^[") {
			t.Fatalf("snapshot %d: cmdline %q not escaped", i, cmd)
		}
	}
}

func firstPID(h *sampler.Host) int {
	for pid := range h.Procs {
		return pid
	}
	return 0
}
