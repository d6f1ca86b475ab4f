package summary

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
	"github.com/gpuscope/gpuscope/sampler"
)

// synthState is the state of a synthetic recording, and Build's report
// of it with opts.
func synthState(t testing.TB, opts Options) (*State, *Report) {
	t.Helper()
	build := func(o Options) *Report {
		r, err := Build(&summarytest.Synth{N: 400, GPUs: 3, Host: true, Recorded: true}, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	st := StateOf(build(Options{Format: opts.Format}))
	if st == nil {
		t.Fatal("no state")
	}
	return st, build(opts)
}

// A state encoded and decoded reports what Build reports, the price, name
// and warnings applied at read time.
func TestStateReportsAsBuild(t *testing.T) {
	opts := Options{File: "run.jsonl.gz", Format: "gpuscope", PricePerKWh: 0.25, Warnings: []string{"w"}}
	st, want := synthState(t, opts)
	b, err := EncodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeState(b)
	if err != nil {
		t.Fatal(err)
	}
	got := back.Report(opts)
	for i := range want.GPUs {
		if len(want.GPUs[i].ThrottleReasons) == 0 {
			want.GPUs[i].ThrottleReasons = nil // StateOf's: read only by ranging
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the state's report differs from Build's:\n%+v\n%+v", got, want)
	}
	if got.Energy == nil || !got.Energy.Cost.OK {
		t.Fatal("no priced energy: the test shows nothing")
	}
}

// What JSON cannot keep exactly is refused, another version is not read,
// and a report with warnings or a price keeps no state.
func TestStateRefused(t *testing.T) {
	st, _ := synthState(t, Options{})
	st.GPUs[0].PowerMean = sampler.Some(math.NaN())
	if _, err := EncodeState(st); err == nil {
		t.Error("a NaN was encoded")
	}
	_, r := synthState(t, Options{Warnings: []string{"line 3: skipped"}})
	if StateOf(r) != nil {
		t.Error("a report with a warning kept a state")
	}
	st, _ = synthState(t, Options{})
	st.Version = StateVersion + 1
	b, _ := json.Marshal(st)
	if _, err := DecodeState(b); err == nil {
		t.Error("another version was decoded")
	}
}

// FuzzDecodeState: any bytes to the footer's state decoder, and what it
// accepts to Report, which must not panic.
func FuzzDecodeState(f *testing.F) {
	st, _ := synthState(f, Options{})
	b, err := EncodeState(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"version":1,"gpus":[{}],"charts":[{"buckets":[{"sum":[1,2,3,4],"n":[1,0,0,0]}],"width":-1}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if st, err := DecodeState(b); err == nil {
			r := st.Report(Options{PricePerKWh: 1})
			for _, g := range r.GPUs {
				g.Chart.Points(ChartUtil)
			}
		}
	})
}
