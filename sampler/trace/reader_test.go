package trace

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func count(t *testing.T, name string) (Meta, map[Kind]int, int64, error) {
	t.Helper()
	kinds := map[Kind]int{}
	var copied int64
	m, err := ReadFile(filepath.Join("testdata", name), func(e Event) error {
		kinds[e.Kind]++
		if e.Kind == Memcpy {
			copied += e.Bytes
		}
		return nil
	})
	return m, kinds, copied, err
}

// The counts were taken with Python's json module from the same files.
func TestReadsRealTraces(t *testing.T) {
	m, kinds, copied, err := count(t, "hta_alexnet.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if m.Events != 868 || m.GPUEvents != 98 || kinds[Kernel] != 79 || kinds[Memcpy] != 16 || kinds[Memset] != 3 {
		t.Errorf("alexnet: %d events, %d GPU, kinds %v", m.Events, m.GPUEvents, kinds)
	}
	if copied != 244403360 || len(m.Devices) != 8 || m.Devices[0].Name != "NVIDIA A100-PG509-200" || m.Rank != 0 || m.Platform != "cuda" {
		t.Errorf("alexnet: %d bytes copied, meta %+v", copied, m)
	}
	m, _, copied, err = count(t, "hta_sampled_rank-0.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if m.Events != 4811 || m.GPUEvents != 1204 || m.Rank != 0 || m.WorldSize != 128 || m.Backend != "nccl" || copied != 214067131 {
		t.Errorf("sampled rank 0: %+v, %d bytes", m, copied)
	}
}

func TestEventFields(t *testing.T) {
	var first *Event
	_, err := ReadFile("testdata/hta_alexnet.json.gz", func(e Event) error {
		if e.Kind == Memcpy && first == nil {
			first = &e
		}
		return nil
	})
	if err != nil || first == nil {
		t.Fatal(err, first)
	}
	// {"name":"Memcpy HtoD (Pageable -> Device)","ts":1695835572943613,"dur":12,
	//  "args":{"External id":14,"stream":7,"correlation":14,"bytes":92928,"device":0}}
	want := Event{Kind: Memcpy, Name: "Memcpy HtoD (Pageable -> Device)", PID: 0, TID: 7, TS: 1695835572943613,
		Dur: 12, Stream: 7, Device: 0, Corr: 14, Ext: 14, Bytes: 92928}
	if *first != want {
		t.Errorf("got %+v\nwant %+v", *first, want)
	}
}

func TestUnsupportedTracesSayWhy(t *testing.T) {
	for file, want := range map[string]string{
		"hta_cpu_only.pt.trace.json.gz": "CPU-only",
		"hta_cupti_profiler.json.gz":    "no GPU kernels",
		"hta_rocm_mi250.json.gz":        "ROCm",
		"hta_mtia_inference.json.gz":    "MTIA",
	} {
		_, _, _, err := count(t, file)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming the file and %q", file, err, want)
		}
	}
}

func plain(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBadInputIsOneLine(t *testing.T) {
	whole := plain(t, "hta_alexnet.json.gz")
	huge := `{"traceEvents":[{"ph":"X","name":"` + strings.Repeat("a", MaxEventBytes+10) + `"}]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(whole)
	zw.Close()
	cut := gz.Bytes()[:gz.Len()/2]
	for name, c := range map[string]struct{ in, want string }{
		"truncated":      {string(whole[:len(whole)/2]), "truncated"},
		"truncated gzip": {string(cut), "truncated"},
		"cut after [":    {`{"traceEvents": [`, "truncated"},
		"array":          {`[1,2,3]`, "not a profiler trace"},
		"no events":      {`{"schemaVersion":1}`, "no traceEvents"},
		"events object":  {`{"traceEvents":{}}`, "not an array"},
		"text":           {"GPU 0: NVIDIA H100\n", "not a profiler trace"},
		"empty":          {"", "not a profiler trace"},
		"bad json":       {`{"traceEvents":[{"ph":"X",,}]}`, "not valid JSON"},
		"huge line":      {huge, "over 4 MiB"},
	} {
		_, err := ReadStream(strings.NewReader(c.in), func(Event) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", name, err, c.want)
		}
	}
}

func TestYieldErrorStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := ReadFile("testdata/hta_alexnet.json.gz", func(Event) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("got %v after %d events", err, n)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2,"args":{"stream":7,"correlation":3}}],"distributedInfo":{"rank":2}}`))
	f.Add([]byte(`{"deviceProperties":[{"id":0,"name":"NVIDIA H100"}],"traceEvents":[{"ph":"M"},{"ph":"X","pid":"Spans"}]}`))
	f.Add([]byte(`{"traceEvents":[`))
	f.Add(plain(f, "hta_cpu_only.pt.trace.json.gz"))
	f.Add([]byte(`{"traceEvents":[{"ph":"X","name":"a}, {\"b","args":{"l":[{"x":1}, {"y":"}, {"}]}}, {"ph":"X","cat":"mtia_x"}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		// Blocks of any size read what one block reads (chunks.go).
		want := readBlocks(in, 1, len(in)+1)
		if got := readBlocks(in, 3, 1+len(in)%61); got.err != want.err || !reflect.DeepEqual(got.meta, want.meta) || !reflect.DeepEqual(got.events, want.events) {
			t.Fatalf("in blocks: %d events, %+v, %q; in one: %d events, %+v, %q", len(got.events), got.meta, got.err, len(want.events), want.meta, want.err)
		}
		m, err := ReadStream(bytes.NewReader(in), func(e Event) error {
			if e.Name == "" && e.Kind == ProfilerStep {
				t.Fatal("a step with no name")
			}
			return nil
		})
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error of several lines: %q", err)
		}
		if m.GPUEvents > m.Events {
			t.Fatalf("more GPU events than events: %+v", m)
		}
	})
}
