package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One diagnosis loop (docs/ARCHITECTURE.md): `report` of a recording's own
// findings, `report` of the same lines without them (recomputed at its 10 s
// stride) and `check --from` (the 1 s Tracker) open every finding within one
// stride of each other.

const reportStride = 10 * time.Second

type reportDoc struct {
	FindingsFrom string `json:"findings_from"`
	Range        struct {
		To time.Time `json:"to"`
	} `json:"range"`
	Findings []struct {
		Rule      string    `json:"rule"`
		GPU       int       `json:"gpu"`
		PID       int       `json:"pid"`
		FirstSeen time.Time `json:"first_seen"`
		LastSeen  time.Time `json:"last_seen"`
		Spans     []struct {
			From time.Time `json:"from"`
		} `json:"spans"`
	} `json:"findings"`
}

type checkDoc struct {
	Findings []struct {
		Rule     string    `json:"rule"`
		GPU      int       `json:"gpu"`
		PID      int       `json:"pid"`
		Since    time.Time `json:"since"`
		Evidence string    `json:"evidence"`
	} `json:"findings"`
}

func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	// check exits 1 or 2 by the worst finding, 4 when a file was too short
	// for some rules (docs/exit-status.md); 3 is an error.
	if st := run(args, &out, &errb); st == 3 || st > 4 {
		t.Fatalf("%v: status %d: %s", args, st, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out.String())
	}
}

// stripFindings copies a plain recording without each line's findings, as
// `jq -c 'del(.findings)'` would.
func stripFindings(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var b bytes.Buffer
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 16<<20)
	for n := 0; sc.Scan(); n++ {
		line := sc.Bytes()
		if n > 0 {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "findings")
			if line, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(to, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func within(a, b time.Time, d time.Duration) bool { return a.Sub(b) <= d && b.Sub(a) <= d }

func TestReportRecomputedOpensWithCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("records nine scenarios")
	}
	for _, sc := range []string{"input_starved", "memory_idle_held", "thermal_throttle", "xid_error", "ecc_errors",
		"straggler", "load_imbalance", "serving_underfilled", "mixed"} {
		t.Run(sc, func(t *testing.T) {
			dir := t.TempDir()
			rec, stripped := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "stripped.jsonl")
			var out, errb bytes.Buffer
			if st := run([]string{"record", "--demo=" + sc, "--duration", "6m", "-o", rec}, &out, &errb); st != 0 {
				t.Fatalf("record: %d %s", st, errb.String())
			}
			stripFindings(t, rec, stripped)
			var recorded, recomputed reportDoc
			var check checkDoc
			runJSON(t, &recorded, "report", "--format", "json", rec)
			runJSON(t, &recomputed, "report", "--format", "json", stripped)
			runJSON(t, &check, "check", "--from", stripped, "--json")
			if recorded.FindingsFrom != "recording" || recomputed.FindingsFrom != "recomputed" || len(recorded.Findings) == 0 {
				t.Fatalf("findings from %q and %q, %d recorded", recorded.FindingsFrom, recomputed.FindingsFrom, len(recorded.Findings))
			}
			got := map[string]time.Time{}
			for _, f := range recomputed.Findings {
				got[fmt.Sprint(f.Rule, "/", f.GPU, "/", f.PID)] = f.FirstSeen
			}
			for _, f := range recorded.Findings {
				k := fmt.Sprint(f.Rule, "/", f.GPU, "/", f.PID)
				if re, ok := got[k]; !ok || !within(re, f.FirstSeen, reportStride) {
					t.Errorf("%s GPU %d: first_seen %s in the recording, recomputed %s (found %v)", f.Rule, f.GPU,
						f.FirstSeen.Format("15:04:05"), re.Format("15:04:05"), ok)
				}
			}
			agreeAtEnd(t, sc, recomputed, check)
		})
	}
}

// corpusFiles are the logs and pastes of sampler/importer/testdata and its
// public corpus (real/).
func corpusFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"sampler/importer/testdata/*", "sampler/importer/testdata/real/*"} {
		paths, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && filepath.Ext(p) != ".tsv" && filepath.Base(p) != "INDEX.md" {
				out = append(out, p)
			}
		}
	}
	return out
}

// On every corpus file, the findings report shows open at the end are
// those check --from ends with, each opened within one stride.
func TestCorpusReportAgreesWithCheck(t *testing.T) {
	files := corpusFiles(t)
	if len(files) < 100 {
		t.Fatalf("%d corpus files", len(files))
	}
	for _, path := range files {
		var out, errb bytes.Buffer
		if st := run([]string{"report", "--format", "json", path}, &out, &errb); st != 0 {
			continue // unreadable by both (TestCorpus holds which)
		}
		var rep reportDoc
		var check checkDoc
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		runJSON(t, &check, "check", "--from", path, "--json")
		agreeAtEnd(t, filepath.Base(path), rep, check)
	}
}

// agreeAtEnd: the findings a report shows open at the end of its range are
// those check ends with, the last opening of each within one stride of
// check's since.
func agreeAtEnd(t *testing.T, name string, rep reportDoc, check checkDoc) {
	t.Helper()
	open, closed := map[string]time.Time{}, map[string]bool{}
	for _, f := range rep.Findings {
		k := fmt.Sprint(f.Rule, "/", f.GPU, "/", f.PID)
		if f.LastSeen.Equal(rep.Range.To) && len(f.Spans) > 0 {
			open[k] = f.Spans[len(f.Spans)-1].From
		} else {
			closed[k] = true
		}
	}
	for _, f := range check.Findings {
		k := fmt.Sprint(f.Rule, "/", f.GPU, "/", f.PID)
		if closed[k] && strings.Contains(f.Evidence, "gone by its end") {
			continue // a health finding that closed counts in check's verdict (diagnose.HealthLog)
		}
		if from, ok := open[k]; !ok || !within(from, f.Since, reportStride) {
			t.Errorf("%s: %s: check since %s, report open at the end %v from %s", name, k,
				f.Since.Format(time.TimeOnly), ok, from.Format(time.TimeOnly))
		}
		delete(open, k)
	}
	for k := range open {
		t.Errorf("%s: report has %s open at the end, check does not", name, k)
	}
}

// Outside diagnose, only the Tracker diagnoses a window: no production
// file builds its own Engine or History (the loop that drifted).
func TestOneDiagnosisLoop(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range strings.Fields(string(out)) {
		if strings.HasSuffix(filepath.ToSlash(filepath.Dir(path)), "/diagnose") {
			continue // the package that owns the loop
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"diagnose.NewEngine(", "diagnose.NewEvidenceEngine(", "diagnose.History"} {
			if bytes.Contains(src, []byte(call)) {
				t.Errorf("%s uses %s: diagnose a window with a diagnose.Tracker", path, strings.TrimSuffix(call, "("))
			}
		}
	}
}
