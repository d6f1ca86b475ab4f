package record

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// fullSnapshot sets every field of a snapshot, so that a field the fast
// reader does not know is caught here (it would send every line with it
// to the general decoder).
func fullSnapshot() sampler.Snapshot {
	s := realisticSnapshot(5)
	g := &s.GPUs[1]
	g.Lost, g.RemapPending, g.RemapFailed, g.InfoROMCorrupt, g.MIG = true, true, true, true, true
	g.Pod = sampler.Pod{Namespace: "ns", Name: "trainer-0", Container: "main"}
	g.Job, g.Owner, g.FabricState, g.FabricStatus = "1234", "alice", "completed", "success"
	g.Virtualization, g.License = "None", "unlicensed"
	for i := range reflect.ValueOf(*g).NumField() {
		if f := reflect.ValueOf(g).Elem().Field(i); f.Type() == reflect.TypeFor[sampler.Metric]() {
			f.Set(reflect.ValueOf(sampler.Some(float64(i) + 0.25)))
		}
	}
	g.NVLinks = []sampler.NVLink{{Link: 0, Active: true, RemoteBus: "00000000:05:00.0", CRC: 3}}
	g.MIGDevices = []sampler.MIGDevice{{Index: 0, GPUInstance: 1, ComputeInstance: 0, Profile: "3g.40gb", MemUsed: sampler.Some(5)}}
	g.VGPUs = []sampler.VGPU{{}}
	g.Xids = []sampler.Xid{{Time: t0, Code: 79}}
	s.Node.GPUError = &sampler.SourceError{Tried: "libnvidia-ml.so.1", Err: "not found", Causes: []string{"no driver"}}
	s.Node.CUDAError, s.Node.ContainerError, s.Node.FabricError, s.Node.ProcsFrom = "c", "d", "f", "e"
	s.Node.Diag = []sampler.DiagCheck{{}}
	s.Host.SwapTotal, s.Host.NetRx, s.Host.ForeignPIDs = sampler.Some(1), sampler.Some(2.5), true
	s.Host.Procs = map[int]*sampler.Proc{4000: {PID: 4000, PPID: 1, User: "alice", Name: "python", Cmdline: "python train.py",
		State: "R", CPU: sampler.Some(99.5), RSS: sampler.Some(1e9), Threads: 12, Start: t0.Add(-time.Hour),
		Container: "abc", PodUID: "1-2", Pod: sampler.Pod{Name: "p"}, Children: []int{4001, 4002}}}
	s.Topology = &sampler.Topology{Links: [][]string{{"X", "NV18"}, {"NV18", "X"}}}
	s.Problems = []string{"a problem"}
	return s
}

// decodeBoth reads line with the fast reader and the general decoder.
func decodeBoth(t testing.TB, line []byte) (fast, general wireEntry, ok bool, err error) {
	t.Helper()
	fast.GPUs = make([]sampler.GPU, 0, 8)
	ok = fastEntry(&scanner{}, line, &fast)
	general.GPUs = make([]sampler.GPU, 0, 8)
	err = jsonv1.Unmarshal(line, &general)
	return fast, general, ok, err
}

// TestFastDecodeAgrees: lines as the writer writes them (every field set,
// static fields left out, findings listed) read by the fast reader, and
// as the general decoder reads them.
func TestFastDecodeAgrees(t *testing.T) {
	var st statics
	var memo findingsMemo
	for i, s := range []sampler.Snapshot{fullSnapshot(), realisticSnapshot(1), fullSnapshot(), realisticSnapshot(3)} {
		e := Entry{Snapshot: s, Findings: json.RawMessage(`[{"rule":"r","evidence":"a \"quoted\" é \u00e9"}]`)}
		l := st.elide(e)
		l = blanked(l)
		memo.elide(&l, e.Findings, s.Time)
		line, err := jsonv1.Marshal(&l)
		if err != nil {
			t.Fatal(err)
		}
		fast, general, ok, err := decodeBoth(t, line)
		if err != nil || !ok {
			t.Fatalf("line %d: fast reader ok=%v, general decoder error %v\n%s", i, ok, err, line)
		}
		if !reflect.DeepEqual(fast, general) {
			t.Fatalf("line %d reads differently:\nfast    %+v\ngeneral %+v", i, fast, general)
		}
	}
}

// Lines the fast reader must leave to the general decoder, each read the
// same through decodeEntry.
func TestFastDecodeRefuses(t *testing.T) {
	for _, line := range []string{
		`{"time":"2026-05-01T12:00:00Z","seq":1,"seq":2}`,
		`{"seq":1,"time":"2026-05-01T12:00:00Z"}`,
		`{"Seq":1}`,
		`{"seq":1.0}`,
		`{"seq":1e2}`,
		`{"gpus":[{"index":0,"util":"5"}]}`,
		`{"node":{"hostname":"a\u0041"}}`,
		`{"host":{"procs":{"05":{"pid":5}}}}`,
		`{"host":{"procs":{"5":{"pid":5},"5":{"pid":6}}}}`,
		`{"gpus":[{"index":0,"unknown":1}]}`,
		`{"findings":null}`,
		`{"seq":1} x`,
		`{"gpus":[{"index":0,"util":01}]}`,
		`{"gpus":[{"index":0,"util":1e999}]}`,
	} {
		var l wireEntry
		if fastEntry(&scanner{}, []byte(line), &l) {
			t.Errorf("fast reader took %s", line)
		}
	}
}

// TestFastDecodeRecording: every line of a real recording
// (GPUSCOPE_BENCH_RECORDING) reads the same both ways, and how many the
// fast reader took.
func TestFastDecodeRecording(t *testing.T) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		t.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := decompressedResync(bufio.NewReader(f), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(nil, maxLineBytes)
	sc.Scan() // the header
	n, fast := 0, 0
	for sc.Scan() {
		n++
		fe, ge, ok, err := decodeBoth(t, sc.Bytes())
		if ok {
			fast++
			if err != nil || !reflect.DeepEqual(fe, ge) {
				t.Fatalf("line %d reads differently (general decoder: %v)", n+1, err)
			}
		}
	}
	t.Logf("%d lines, %d read by the fast reader", n, fast)
	if fast < n*99/100 {
		t.Errorf("the fast reader took %d of %d lines", fast, n)
	}
}

// FuzzFastDecode: whatever the fast reader accepts, the general decoder
// accepts and reads the same.
func FuzzFastDecode(f *testing.F) {
	// Small seeds: the fuzzer minimises every input it keeps, minutes for
	// a whole 8-GPU line.
	f.Add([]byte(`{"time":"2026-05-01T12:00:00.5Z","seq":3,"node":{"hostname":"n","source":"demo"},"findings":[{"a":"\u00e9"}],"same_gpus":[0]}`))
	f.Add([]byte(`{"host":{"cpus":[],"cpu":null,"procs":{"7":{"pid":7,"ppid":1,"state":"S","rss":8.5e+09,"children":[8]}}}}`))
	f.Add([]byte(`{"gpus":[{"index":0,"pod":{"name":"p"},"na":{"fan":"x"},"procs":[{"pid":1,"type":"C","sm_util":3}]}]}`))
	f.Add([]byte(`{"time":"2026-05-01T12:00:00Z","gpus":[{"index":0,"util":-0.5e-3,"clock_events":[]}],"host":{"cpus":[1,2.5]}}`))
	f.Add([]byte(`{"seq":12,"gpus":[{"index":-12,"mem_used":-0.0}],"same_gpus":[-1,123456789012345678,1234567890123456789]}`))
	f.Add([]byte(strings.Repeat(`{"findings":[`, 3)))
	f.Fuzz(func(t *testing.T, line []byte) {
		fe, ge, ok, err := decodeBoth(t, line)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("fast reader took what the general decoder refuses (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fe, ge) {
			t.Fatalf("reads differently: %q\nfast    %+v\ngeneral %+v", line, fe, ge)
		}
	})
}

// The one-pass number reader (fastnum.go) gives strconv's correctly rounded
// value, or refuses what JSON's grammar or a float64's range refuses; an
// integer field refuses a fraction and an exponent.
func TestScannerNumbers(t *testing.T) {
	for _, c := range []string{"0", "-0", "596.35", "8.838447104e+10", "0.1", "1e22", "1e23", "9007199254740993",
		"123456789012345678901", "0.000001", "5e-324", "1.7976931348623157e308", "1e400", "-2.5E-3", "1e0001",
		"1.", ".5", "01", "-", "1e", "1e+", "+1", "0x1", "1e1000000000000000000000"} {
		var v float64
		wantErr := jsonv1.Unmarshal([]byte(c), &v) != nil
		s := scanner{b: []byte(c)}
		got := s.float()
		bad := s.bad || s.i != len(s.b)
		if bad != wantErr || !bad && math.Float64bits(got) != math.Float64bits(v) {
			t.Errorf("float %q = %v (refused %v), want %v (refused %v)", c, got, bad, v, wantErr)
		}
	}
	for _, c := range []string{"0", "-0", "7", "-12", "123456789012345678", "1234567890123456789", "9223372036854775808",
		"-9223372036854775808", "1.0", "1e3", "01", "-", "1.5"} {
		var v int64
		wantErr := jsonv1.Unmarshal([]byte(c), &v) != nil
		s := scanner{b: []byte(c)}
		got := s.integer(math.MinInt64, math.MaxInt64)
		bad := s.bad || s.i != len(s.b)
		if bad != wantErr || !bad && got != v {
			t.Errorf("integer %q = %v (refused %v), want %v (refused %v)", c, got, bad, v, wantErr)
		}
	}
}
