package main

import (
	"bytes"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// The footer record builds from the values it writes as it writes them
// (ui/cli/recfooter.go, summary.Values) is the one a report of the file
// builds reading it back, over every scenario (their findings, processes,
// MIG instances and slow-tier fields change while recorded; six of them
// twenty minutes long, the others five); the build's name aside, the same
// bytes. A change to the writer, the reader or the builder that made the
// two drift fails here.
func TestFooterStreamedAsReadBack(t *testing.T) {
	dir := t.TempDir()
	long := map[string]bool{"mixed": true, "thermal_throttle": true, "mig": true, "xid_error": true, "allocated_idle": true, "pcie_errors": true}
	for _, sc := range sim.Scenarios() {
		s, d := sc.ID, "5m"
		if long[s] {
			d = "20m"
		}
		p := recordFooter(t, dir, s, d)
		got, err := summary.DecodeState(footerState(t, p))
		if err != nil {
			t.Fatal(err)
		}
		if got.Program == "" {
			t.Errorf("%s: the footer names no build", s)
		}
		got.Program = ""
		streamed, err := summary.EncodeState(got)
		if err != nil {
			t.Fatal(err)
		}
		if want := readBackState(t, p); !bytes.Equal(streamed, want) {
			t.Errorf("%s: the footer built while recording differs from the file read back:\n%.2000s\n---- read back ----\n%.2000s", s, streamed, want)
		}
	}
}

// readBackState is the footer's state of the recording at path, built by
// reading its lines as report --full does.
func readBackState(t *testing.T, path string) []byte {
	t.Helper()
	f, err := importer.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := summary.BuildFrom(f, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := summary.StateOf(r)
	if st == nil {
		t.Fatalf("%s: no state to keep", path)
	}
	b, err := summary.EncodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
