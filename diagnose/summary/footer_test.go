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
// of it (two builders: finish consumes the findings).
func synthState(t testing.TB, opts Options) (*State, *Report) {
	t.Helper()
	build := func() *builder {
		b := newBuilder(opts)
		if err := b.build(&summarytest.Synth{N: 400, GPUs: 3, Host: true, Recorded: true}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	return build().state(), build().finish()
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
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the state's report differs from Build's:\n%+v\n%+v", got, want)
	}
	if got.Energy == nil || !got.Energy.Cost.OK {
		t.Fatal("no priced energy: the test shows nothing")
	}
}

// What JSON cannot keep exactly is refused, and another version is not read.
func TestStateRefused(t *testing.T) {
	st, _ := synthState(t, Options{})
	st.GPUs[0].PowerMean = sampler.Some(math.NaN())
	if _, err := EncodeState(st); err == nil {
		t.Error("a NaN was encoded")
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
