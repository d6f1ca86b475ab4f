package replay

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
)

// spoolOf spools tl into a temporary directory of the test.
func spoolOf(t testing.TB, tl []sampler.Snapshot) *spool.Spool {
	t.Helper()
	sp, err := spool.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	for _, s := range tl {
		if err := sp.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sp.Finish(); err != nil {
		t.Fatal(err)
	}
	return sp
}

// long is the mixed node's 300 s repeated n times, one after the other.
func long(t testing.TB, n int) []sampler.Snapshot {
	t.Helper()
	base, err := demo300()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]sampler.Snapshot, 0, n*len(base))
	for r := range n {
		for _, s := range base {
			s.Time = s.Time.Add(time.Duration(r*len(base)) * time.Second)
			out = append(out, s)
		}
	}
	return out
}

func replayOf(src Source, w, h int) Model {
	opts := Options{UI: uiOptions(), Paused: true,
		NewTracker: func() *diagnose.Tracker { return diagnose.NewViewTracker(diagnose.Options{}) }}
	nm, _ := NewFrom(src, opts).Update(tea.WindowSizeMsg{Width: w, Height: h})
	return nm.(Model)
}

// A spooled timeline replays exactly as the same snapshots held in memory,
// and the first frame decodes one block, whatever the recording's length.
func TestSpoolFirstFrameAndSeek(t *testing.T) {
	tl := long(t, 10) // 3000 snapshots, 24 blocks
	sp := spoolOf(t, tl)
	if sp.Len() != len(tl) {
		t.Fatalf("spool holds %d snapshots, want %d", sp.Len(), len(tl))
	}
	m := replayOf(sp, 120, 40)
	if d := sp.Decoded(); d > 1 {
		t.Fatalf("first frame decoded %d blocks, want 1", d)
	}
	first := m.View()
	if mem := replayOf(sampler.Snapshots(tl), 120, 40).View(); first != mem {
		t.Fatalf("spooled first frame differs from in-memory:\n%s\n---\n%s", first, mem)
	}
	before := sp.Decoded()
	m = press(t, m, "end")
	// A rebuild reads backfill + window + settle before the cursor.
	need := (backfill+int((diagnose.DefaultWindow+settle)/time.Second))/spool.BlockLen + 2
	if d := sp.Decoded() - before; d > need {
		t.Fatalf("seeking to the end decoded %d blocks, want at most %d", d, need)
	}
	if got, want := m.View(), press(t, replayOf(sampler.Snapshots(tl), 120, 40), "end").View(); got != want {
		t.Fatalf("end of the spool differs from in-memory:\n%s\n---\n%s", got, want)
	}
	if back := press(t, m, "home").View(); back != first {
		t.Fatalf("end and back differs from a fresh replay:\n%s\n---\n%s", back, first)
	}
}

// A log concatenated out of order is played sorted by time.
func TestSpoolSortsOutOfOrder(t *testing.T) {
	tl := long(t, 1)[:200]
	rev := make([]sampler.Snapshot, len(tl))
	for i, s := range tl {
		rev[len(tl)-1-i] = s
	}
	sp, err := spool.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	for _, s := range rev {
		if err := sp.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	sorted, err := sp.Finish()
	if err != nil || !sorted {
		t.Fatalf("Finish = %v, %v; want sorted", sorted, err)
	}
	for i := range tl {
		if got := sp.At(i); !got.Time.Equal(tl[i].Time) || len(got.GPUs) != len(tl[i].GPUs) || !sp.Time(i).Equal(tl[i].Time) {
			t.Fatalf("snapshot %d at %v, want %v", i, got.Time, tl[i].Time)
		}
	}
}

// BenchmarkSpoolAt is a read from a block not cached (the cost of the
// first snapshot of each block while playing, and of each block a rebuild
// reads).
func BenchmarkSpoolAt(b *testing.B) {
	sp := spoolOf(b, long(b, 2))
	i := 0
	for b.Loop() {
		sp.At(i)
		i = (i + spool.BlockLen) % sp.Len()
	}
}

// BenchmarkReplaySeekSpool is a jump across a spooled timeline: the blocks
// a rebuild needs decoded, then the re-diagnosis.
func BenchmarkReplaySeekSpool(b *testing.B) {
	sp := spoolOf(b, long(b, 4))
	m := replayOf(sp, 200, 50)
	i := 0
	for b.Loop() {
		i = (i + 517) % sp.Len()
		m = finish(m.rebuildAt(i))
	}
}

// benchRecording is the real recording the load benchmarks read:
// GPUSCOPE_BENCH_RECORDING names it (a day of the demo: gpuscope record -o
// day.jsonl.gz --demo --duration 24h); they are skipped without.
func benchRecording(b *testing.B) string {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	return path
}

// BenchmarkLoadToFirstFrame is `replay FILE` up to its first frame on a
// real recording (the goal: under 1 s for a day of 8 GPUs, docs/benchmarks.md
// "Recordings at scale"), then quitting at once (the loader stopped and joined).
func BenchmarkLoadToFirstFrame(b *testing.B) {
	path := benchRecording(b)
	for b.Loop() {
		sp, _, err := spool.Open(path, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		_ = replayOf(sp, 200, 50).View()
		sp.Close()
	}
}

// BenchmarkLoadSpoolRecording is the whole load of a real recording behind
// the first frame, then a seek to its middle.
func BenchmarkLoadSpoolRecording(b *testing.B) {
	path := benchRecording(b)
	for b.Loop() {
		sp, _, err := spool.Open(path, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		m := replayOf(sp, 200, 50)
		_ = m.View()
		for !sp.Progress().Done {
			time.Sleep(10 * time.Millisecond)
		}
		if err := sp.Progress().Err; err != nil {
			b.Fatal(err)
		}
		m = finish(m.rebuildAt(sp.Len() / 2)) // a seek to the middle
		_ = m.View()
		sp.Close()
	}
}

// growing is a source still loading: n of its snapshots are readable.
type growing struct {
	sampler.Snapshots
	n int
	p spool.Progress
}

func (g *growing) Len() int                 { return g.n }
func (g *growing) Progress() spool.Progress { return g.p }

// While the recording loads, the first frame is up, the timeline says how
// far loading got, a seek past what is read stops at its end, playing at
// that end waits for more instead of stopping, and an error that stops
// loading gets its own line and Err.
func TestReplayWhileLoading(t *testing.T) {
	tl := long(t, 1)
	g := &growing{Snapshots: tl, n: spool.BlockLen, p: spool.Progress{Fraction: 0.37}}
	opts := Options{UI: uiOptions(), Paused: true}
	nm, _ := NewFrom(g, opts).Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m := nm.(Model)
	if !m.Loading() || !strings.Contains(m.View(), "loading 37%") || !strings.Contains(m.View(), "┄") {
		t.Fatalf("timeline while loading does not say so:\n%s", lastLine(m.View()))
	}
	m = press(t, m, "end")
	if m.Cursor() != spool.BlockLen-1 {
		t.Fatalf("end while loading went to %d, want the last read, %d", m.Cursor(), spool.BlockLen-1)
	}
	m = press(t, m, " ")
	if !m.Playing() {
		t.Fatal("play at the end of what is read stopped; want it to wait for more")
	}
	nm, cmd := m.Update(tickMsg{gen: m.gen})
	m = nm.(Model)
	if !m.Playing() || cmd == nil {
		t.Fatal("a tick at the end of what is read stopped playback while loading")
	}
	g.n, g.p = 2*spool.BlockLen, spool.Progress{Fraction: 0.8, Done: true, Err: errors.New("r.jsonl: line 300: not a snapshot")}
	nm, _ = m.Update(loadTickMsg{})
	m = nm.(Model)
	nm, _ = m.Update(tickMsg{gen: m.gen})
	m = finish(nm.(Model))
	if m.Cursor() <= spool.BlockLen-1 {
		t.Fatalf("playback did not go on into what arrived: cursor %d", m.Cursor())
	}
	if m.Loading() || m.Err() == nil || !strings.Contains(m.View(), "✗ loading stopped: r.jsonl: line 300") {
		t.Fatalf("a loading error is not shown (Err %v):\n%s", m.Err(), m.View())
	}
	if strings.Contains(lastLine(m.View()), "loading") || strings.Contains(m.View(), "┄") {
		t.Fatalf("timeline still says loading after the end:\n%s", lastLine(m.View()))
	}
	if got := strings.Count(m.View(), "\n") + 1; got != 40 {
		t.Fatalf("view is %d lines with the error line, want 40", got)
	}
}

func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }
