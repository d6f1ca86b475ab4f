package promexport

import (
	"bytes"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/gpuscope/gpuscope/sampler"
)

// The hand-written exposition is byte for byte what client_golang writes
// for the Collector's series, in both formats, including escapes, repaired
// UTF-8 and a duplicate series dropped.
func TestEncodingMatchesClientGolang(t *testing.T) {
	snap := testNode(3, 2)
	snap.GPUs[0].Procs[0].Host.Name = "tab\\\"quote\"\nnewline"
	snap.GPUs[1].Procs[0].Host.User = "bad\xffutf8"
	snap.GPUs[2].Procs = append(snap.GPUs[2].Procs, snap.GPUs[2].Procs[0]) // listed twice
	snap.GPUs[2].Power.V = 1e21                                            // exponent form
	for i := range snap.GPUs {
		if i != 1 {
			snap.GPUs[i].Pod = sampler.Pod{Namespace: "ml", Name: "p-" + snap.GPUs[i].UUID[:12], Container: "c"}
		}
	}
	st := NewState()
	findings := testFindings(snap.Time)
	st.Publish(snap, append(findings, findings[0]))
	opts := Options{DCGM: true, Own: true, Version: "v1.2.3", Pods: true}
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(st, opts))
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	set := newMetricSet(opts)
	for _, c := range []struct {
		name   string
		format expfmt.Format
		om     bool
	}{
		{"text", expfmt.NewFormat(expfmt.TypeTextPlain), false},
		{"openmetrics", expfmt.NewFormat(expfmt.TypeOpenMetrics), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want bytes.Buffer
			enc := expfmt.NewEncoder(&want, c.format)
			for _, f := range fams {
				if err := enc.Encode(f); err != nil {
					t.Fatal(err)
				}
			}
			if closer, ok := enc.(expfmt.Closer); ok {
				_ = closer.Close()
			}
			sc := set.build(st)
			got := appendExposition(nil, sc, c.om)
			set.release(sc)
			if !bytes.Equal(got, want.Bytes()) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want.Bytes(), []byte("\n"))
				for i := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[i], wl[i]) {
						t.Fatalf("line %d differs:\n got %q\nwant %q", i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%d lines, client_golang %d", len(gl), len(wl))
			}
		})
	}
}
