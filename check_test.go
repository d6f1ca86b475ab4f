package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckExitStatus holds check's exit-status contract
// (docs/exit-status.md): 0 no findings, 1 worst is a warning, 2 worst is
// critical, 3 any error — so 2 never means a usage mistake for check.
func TestCheckExitStatus(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
		out  string // in stdout (or stderr for errors)
	}{
		{"healthy", []string{"check", "--demo=healthy"}, 0, "no findings"},
		{"warning", []string{"check", "--demo=thermal_throttle"}, 1, "[WARNING] GPU 0 throttled by temperature"},
		{"critical", []string{"check", "--demo=ecc_errors"}, 2, "[CRITICAL] GPU 0 uncorrectable memory errors"},
		{"unknown flag", []string{"check", "--bogus"}, 3, "unknown flag: --bogus"},
		{"bad value", []string{"check", "--demo", "--for", "10ms"}, 3, "--for 10ms"},
		{"unknown scenario", []string{"check", "--demo=nope"}, 3, "nope"},
		{"missing file", []string{"check", "--from", filepath.Join(t.TempDir(), "none.jsonl")}, 3, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			got := run(c.args, &out, &errb)
			if got != c.want {
				t.Fatalf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", got, c.want, out.String(), errb.String())
			}
			if !strings.Contains(out.String()+errb.String(), c.out) {
				t.Errorf("output lacks %q:\n%s%s", c.out, out.String(), errb.String())
			}
		})
	}
}

// TestCheckReportsEvidenceFixAndChecklist: the pasteable block carries each
// finding's evidence and first fix and the GPU's seven steps; stderr, not a
// terminal here (a job's log), gets no progress line rewritten with \r.
func TestCheckReportsEvidenceFixAndChecklist(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run([]string{"check", "--demo=thermal_throttle", "--for", "20s"}, &out, &errb); got != 1 {
		t.Fatalf("status %d\n%s", got, errb.String())
	}
	for _, want := range []string{"diagnosis over 20s (20 samples)", "  evidence:  ", "  first fix: ", "gpuscope explain thermal_throttle", "checklist, GPU 0:", "  7. ["} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(errb.String(), "\r") || strings.Contains(errb.String(), "samples") {
		t.Errorf("progress written into a non-terminal: %q", errb.String())
	}
}

// TestCheckJSONAndFrom: a recording diagnosed with --from gives the finding
// the live demo gave, and --json carries worst and exit.
func TestCheckJSONAndFrom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tt.jsonl")
	var out, errb bytes.Buffer
	if got := run([]string{"record", "--demo=thermal_throttle", "--duration", "1m", "-o", path}, &out, &errb); got != 0 {
		t.Fatalf("record: %d %s", got, errb.String())
	}
	out.Reset()
	errb.Reset()
	if got := run([]string{"check", "--from", path, "--json"}, &out, &errb); got != 1 {
		t.Fatalf("status %d, want 1\n%s", got, errb.String())
	}
	var doc struct {
		Worst    string `json:"worst"`
		Exit     int    `json:"exit"`
		Samples  int    `json:"samples"`
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
		Checklists [][]struct{ N int } `json:"checklists"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if doc.Worst != "warning" || doc.Exit != 1 || doc.Samples == 0 || len(doc.Findings) == 0 || doc.Findings[0].Rule != "thermal_throttle" {
		t.Errorf("doc = %+v", doc)
	}
	if len(doc.Checklists) != 8 || len(doc.Checklists[0]) != 7 {
		t.Errorf("checklists: %d GPUs", len(doc.Checklists))
	}
}

// TestCheckChinese: with --lang zh the verdict, every finding (title,
// evidence, first fix) and the checklist are Chinese, and the exit status
// is the same contract; explain is pointed at the Chinese page.
func TestCheckChinese(t *testing.T) {
	cases := []struct {
		scenario string
		want     int
		out      []string
	}{
		{"healthy", 0, []string{"没有发现问题", "排查清单，GPU 0："}},
		{"thermal_throttle", 1, []string{"[警告] GPU 0 因温度降频  (thermal_throttle)", "  证据： ", "  先试： ", "gpuscope explain thermal_throttle --lang zh", "最高级别：警告"}},
		{"ecc_errors", 2, []string{"[严重] GPU 0 出现不可纠正的显存错误", "易失性不可纠正 ECC 错误"}},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			var out, errb bytes.Buffer
			got := run([]string{"check", "--demo=" + c.scenario, "--lang", "zh"}, &out, &errb)
			if got != c.want {
				t.Fatalf("status %d, want %d\n%s%s", got, c.want, out.String(), errb.String())
			}
			for _, w := range c.out {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, en := range []string{"evidence:", "first fix:", "checklist,", "diagnosis over"} {
				if strings.Contains(out.String(), en) {
					t.Errorf("English %q left in the Chinese check:\n%s", en, out.String())
				}
			}
		})
	}
}
