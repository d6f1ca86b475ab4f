package report

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/ui/i18n"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
	"github.com/gpuscope/gpuscope/sampler"
)

// TestNoHostDataNoteShown: the note on what an imported log cannot judge
// reaches the text report.
func TestNoHostDataNoteShown(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 60, GPUs: 2}, summary.Options{})
	if len(r.Absent) == 0 {
		t.Fatal("no absent note to show")
	}
	if out := string(render(t, Text, r)); !strings.Contains(out, "note       "+r.Absent[0]) {
		t.Errorf("text lacks the host-data note:\n%s", out)
	}
}

// TestHTMLSurvivesNaNReadings: a NaN or infinite reading (a broken
// exporter) does not stop the charts.
func TestHTMLSurvivesNaNReadings(t *testing.T) {
	snaps := []sampler.Snapshot{
		{Time: summarytest.Start, GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(math.NaN()), Power: sampler.Some(math.Inf(1)), PowerLimit: sampler.Some(700)}}},
		{Time: summarytest.Start.Add(1e9), GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(50)}}},
	}
	list := sampler.Snapshots(snaps)
	r := build(t, &list, summary.Options{})
	var b strings.Builder
	if err := HTML(&b, r); err != nil {
		t.Fatalf("HTML with NaN readings: %v", err)
	}
}

// TestEveryFormatShowsEvidenceLinesAndSections: where an imported reading
// came from (file, section, line) and what each section was read as reach
// every format.
func TestEveryFormatShowsEvidenceLinesAndSections(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 5, GPUs: 2}, summary.Options{Sections: []string{"section 2, b-topo.txt: nvidia-smi topo -m"}})
	r.Findings = append(r.Findings, summary.Finding{Rule: "xid_error", GPU: 1, Severity: diagnose.Critical, Title: "Xid 31",
		Lines: []string{"c-dmesg.txt, section 3 (kernel log) line 1"}, Episodes: 1})
	for name, f := range map[string]func(io.Writer, *summary.Report) error{"text": Text, "markdown": Markdown, "json": JSON, "html": HTML} {
		out := string(render(t, f, r))
		if !strings.Contains(out, "c-dmesg.txt, section 3 (kernel log) line 1") || !strings.Contains(out, "section 2, ") {
			t.Errorf("%s lacks the evidence line or the sections:\n%s", name, out)
		}
	}
}

// TestCompareRowsGPUOnlyOnOneSide: a GPU present in one run only has n/a
// for the other side and for the change, never 0.
func TestCompareRowsGPUOnlyOnOneSide(t *testing.T) {
	base := build(t, &summarytest.Synth{N: 30, GPUs: 2}, summary.Options{})
	after := build(t, &summarytest.Synth{N: 30, GPUs: 3}, summary.Options{})
	c := summary.Compare(base, after)
	if d := deltaOf(&c.GPUs[2], figures[0]); d.OK {
		t.Errorf("delta of a GPU missing in base = %v, want n/a", d)
	}
	rows := In(i18n.For("en")).w.changeRows(&c.GPUs[2])
	if rows[0][1] != na || rows[0][3] != na {
		t.Errorf("row %q, want n/a base and change", rows[0])
	}
	if d := deltaOf(&c.GPUs[0], figures[0]); !d.OK || d.V != 0 {
		t.Errorf("GPU 0 util delta between equal runs = %v, want 0", d)
	}
}
