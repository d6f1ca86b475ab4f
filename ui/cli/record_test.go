package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// oneGPU is a GPU source with one idle GPU: the commands need no driver.
type oneGPU struct{}

func (oneGPU) Node() sampler.Node { return sampler.Node{Driver: "test"} }
func (oneGPU) Sample(time.Time) ([]sampler.GPU, []string) {
	return []sampler.GPU{{Index: 0, Name: "Test GPU", Util: sampler.Some(0)}}, nil
}
func (oneGPU) Topology() *sampler.Topology { return nil }
func (oneGPU) Close() error                { return nil }

// fakeDeps is Deps over a fake node: Demo serves oneGPU, Live is never
// reached by these tests.
func fakeDeps(t *testing.T) Deps {
	return Deps{
		Version: "test", Commit: "none",
		Live: func() (*sampler.Sampler, bool) { t.Fatal("live node opened"); return nil, false },
		Demo: func(string, int64, time.Time, []string) (*sampler.Sampler, error) {
			return &sampler.Sampler{GPU: oneGPU{}, Hostname: "fake", Source: "demo:fake"}, nil
		},
		Faults: func() []Fault { return nil },
		Doctor: func() []DoctorCheck { return nil },
		Getenv: func(string) string { return "" },
	}
}

func runCLI(t *testing.T, args ...string) (status int, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	root := NewRoot(fakeDeps(t), &out, &errb)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return ExitStatus(cmd, err, &errb), errb.String()
}

func readEntries(t *testing.T, path string) []record.Entry {
	t.Helper()
	r, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []record.Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

// TestRecordThroughTheCollector: record writes through the collector and the
// Toggle, as fast as it can on the simulated clock and on the wall clock
// with --realtime, every entry carrying the findings (here: none, "null").
func TestRecordThroughTheCollector(t *testing.T) {
	dir := t.TempDir()
	fast := filepath.Join(dir, "fast.jsonl")
	if st, errs := runCLI(t, "record", "-o", fast, "--demo=x", "--duration", "30s"); st != 0 || !strings.Contains(errs, "recorded 30 snapshots to "+fast) {
		t.Fatalf("fast: status %d, stderr %q", st, errs)
	}
	if es := readEntries(t, fast); len(es) != 30 || es[29].Snapshot.Time.Sub(es[0].Snapshot.Time) != 29*time.Second || es[0].Findings == nil {
		t.Fatalf("fast: %d entries", len(es))
	}
	live := filepath.Join(dir, "live.jsonl.gz")
	if st, errs := runCLI(t, "record", "-o", live, "--demo=x", "--realtime", "--duration", "450ms", "--interval", "100ms"); st != 0 || !strings.Contains(errs, "recording; Ctrl-C stops") {
		t.Fatalf("realtime: status %d, stderr %q", st, errs)
	}
	if es := readEntries(t, live); len(es) < 2 || len(es) > 6 { // the first, then the collector's ticks (fewer on a loaded machine)
		t.Fatalf("realtime 450 ms at 100 ms: %d entries, want about 5", len(es))
	}
	if st, errs := runCLI(t, "record", "-o", fast, "--demo=x", "--duration", "3s"); st != 2 || !strings.Contains(errs, "--force") {
		t.Fatalf("existing file: status %d, stderr %q", st, errs)
	}
}
