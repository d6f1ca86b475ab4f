package record

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestReaderWarnsImplausibleSnapshots: time going backwards, a snapshot
// dated 1970 and a negative GPU index are each warned about once, with the
// line, and every snapshot is still returned in file order.
func TestReaderWarnsImplausibleSnapshots(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	snaps := []sampler.Snapshot{
		{Time: t0, GPUs: []sampler.GPU{{Index: 0}}},
		{Time: t0.Add(time.Second), GPUs: []sampler.GPU{{Index: 0}}},
		{Time: t0.Add(-24 * time.Hour), GPUs: []sampler.GPU{{Index: 0}}}, // line 4
		{Time: t0.Add(-23 * time.Hour), GPUs: []sampler.GPU{{Index: 0}}},
		{Time: time.Unix(0, 0), GPUs: []sampler.GPU{{Index: -1}}}, // line 6
		{Time: time.Unix(5, 0), GPUs: []sampler.GPU{{Index: -2}}},
	}
	r, err := Open(writeSnapshots(t, snaps))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !e.Time.Equal(snaps[n].Time) {
			t.Fatalf("entry %d: %v, want file order", n, e.Time)
		}
		n++
	}
	warns := strings.Join(r.Warnings(), "\n")
	for _, want := range []string{"line 4: time goes backwards", "line 6: dated 1970-01-01", "line 6: GPU index -1"} {
		if strings.Count(warns, want) != 1 {
			t.Errorf("want %q once in:\n%s", want, warns)
		}
	}
	if c := strings.Count(warns, "\n") + 1; c != 3 {
		t.Errorf("%d warnings, want 3 (each kind once):\n%s", c, warns)
	}
}

// CheckNumbered warns as Check does with "noun n", and names nothing (no
// allocation) for a snapshot that raises no warning.
func TestCheckNumberedAsCheck(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	snaps := []sampler.Snapshot{
		{Time: t0, GPUs: []sampler.GPU{{Index: 0}}},
		{Time: t0.Add(-time.Hour), GPUs: []sampler.GPU{{Index: 0}}},
		{Time: time.Unix(0, 0), GPUs: []sampler.GPU{{Index: -1}}},
	}
	var named, numbered OrderCheck
	for i := range snaps {
		want := strings.Join(named.Check(&snaps[i], "line "+strconv.Itoa(i+2)), "\n")
		if got := strings.Join(numbered.CheckNumbered(&snaps[i], "line", i+2), "\n"); got != want {
			t.Errorf("snapshot %d: %q, want %q", i, got, want)
		}
	}
	var quiet OrderCheck
	s := sampler.Snapshot{Time: t0, GPUs: []sampler.GPU{{Index: 0}}}
	if n := testing.AllocsPerRun(100, func() { quiet.CheckNumbered(&s, "line", 12345) }); n != 0 {
		t.Errorf("%v allocations for a snapshot without a warning, want 0", n)
	}
}
