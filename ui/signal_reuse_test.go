package ui

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// A dialog left open while its process ends, and the PID is taken by another
// process (a different start time), must not signal the newcomer.
func TestSignalRefusesAReusedPID(t *testing.T) {
	var sent []int
	m := signalModel(t, 424242, currentUser(t), func(o *Options) {
		o.Kill = func(pid int, _ syscall.Signal) error { sent = append(sent, pid); return nil }
	})
	m = press(m, "k")
	if m.pages.top() != pageConfirm {
		t.Fatalf("no dialog: %s", m.c.status)
	}
	last := m.c.window[len(m.c.window)-1]
	newer := last
	newer.Time = last.Time.Add(time.Second)
	h := *last.Host
	h.Procs = map[int]*sampler.Proc{}
	for pid, p := range last.Host.Procs {
		h.Procs[pid] = p
	}
	reused := *h.Procs[424242]
	reused.Start = reused.Start.Add(time.Hour) // another process holds the PID now
	h.Procs[424242] = &reused
	newer.Host = &h
	m = push(m, newer)
	m = press(m, "y")
	if len(sent) != 0 || !strings.Contains(m.c.status, "was reused") {
		t.Fatalf("sent %v, status %q", sent, m.c.status)
	}
}
