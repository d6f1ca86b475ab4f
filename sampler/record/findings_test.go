package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// finding is a recorded finding as diagnose writes it, fields in its
// order; nested is an i18n argument named like the top-level key, which the
// scan must not take for it.
func finding(rule string, gpu int, evidence string, lastSeen time.Time) string {
	ls, _ := json.Marshal(lastSeen)
	return fmt.Sprintf(`{"rule":%q,"severity":"warning","gpu":%d,"pid":0,"title":"t \"q\" , {x}","evidence":%q,`+
		`"since":"2026-05-01T12:00:00Z","last_seen":%s,"i18n":{"title":{"id":"a","args":{"last_seen":"x"}}}}`, rule, gpu, evidence, ls)
}

// The findings are written only when they change and read back as they
// were given, line by line: unchanged (same_findings), seen again at the
// line's time (seen_findings), changed words, a last_seen that is not the
// line's time, a finding added in front (all shift), removed, none, and
// across a gzip member's first line (written whole).
func TestFindingsWrittenOnChangeReadBackWhole(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 500, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	list := func(fs ...string) json.RawMessage { return json.RawMessage("[" + strings.Join(fs, ",") + "]") }
	var want []json.RawMessage
	for i := range linesPerMember + 20 {
		var f json.RawMessage
		switch {
		case i == 3: // none
		case i == 4:
			f = json.RawMessage(`null`)
		case i == 5:
			f = json.RawMessage(`[]`)
		case i < 10: // seen again each line
			f = list(finding("a", 0, "e", at(i)), finding("b", 1, "e", at(i)))
		case i < 13: // the same, last seen earlier (a diagnosis held over lines)
			f = list(finding("a", 0, "e", at(9)), finding("b", 1, "e", at(9)))
		case i == 13: // words changed for b, a last seen now
			f = list(finding("a", 0, "e", at(i)), finding("b", 1, "e2", at(i)))
		case i < 16: // c in front: everything shifts once
			f = list(finding("c", 2, "e", at(i)), finding("a", 0, "e", at(i)), finding("b", 1, "e2", at(i)))
		case i < 18: // a gone
			f = list(finding("c", 2, "e", at(i)), finding("b", 1, "e2", at(i)))
		default:
			f = list(finding("c", 2, "e", at(i)))
		}
		want = append(want, f)
	}
	for _, name := range []string{"r.jsonl", "r.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range want {
				s := realisticSnapshot(i)
				s.Time = at(i)
				if err := w.Write(Entry{Snapshot: s, Findings: f}); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := readWith(t, path, Options{})
			if len(got) != len(want) {
				t.Fatalf("read %d entries, want %d", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i].Findings, want[i]) {
					t.Fatalf("line %d: findings\n%s\nwant\n%s", i+2, got[i].Findings, want[i])
				}
				// every finding as on the line before
				repeat := i > 0 && (i < 3 || i > 6) && i != 13 && i != 14 && i != 16 &&
					(i != linesPerMember || name == "r.jsonl")
				kept := got[i].FindingsKept
				all := len(kept) > 0 && !slices.Contains(kept, false)
				if all != repeat || all && got[i].FindingsWritten != nil {
					t.Fatalf("line %d: kept %v, written %s; want all kept: %v", i+2, kept, got[i].FindingsWritten, repeat)
				}
				if i == 13 && (!slices.Equal(kept, []bool{true, false}) || string(got[i].FindingsWritten) != "["+finding("b", 1, "e2", at(13))+"]") {
					t.Fatalf("line %d: kept %v, written %s", i+2, kept, got[i].FindingsWritten)
				}
			}
			// Left to FindingsList, the same text, and the same value
			// handed on while nothing changed (lines 12 to 14).
			lazy := readWith(t, path, Options{FindingsOnDemand: true})
			for i := range want {
				l := lazy[i]
				text := l.Findings
				if l.FindingsList != nil {
					if l.Findings != nil {
						t.Fatalf("line %d: both Findings and FindingsList", i+2)
					}
					text = l.FindingsList.Text()
				}
				if !bytes.Equal(text, want[i]) || (l.FindingsList != nil) != (got[i].FindingsKept != nil) ||
					!slices.Equal(l.FindingsKept, got[i].FindingsKept) || !bytes.Equal(l.FindingsWritten, got[i].FindingsWritten) {
					t.Fatalf("line %d on demand: findings\n%s\nwant\n%s", i+2, text, want[i])
				}
				if handed := i > 0 && l.FindingsList != nil && l.FindingsList == lazy[i-1].FindingsList; handed != (i >= 10 && i <= 12) {
					t.Fatalf("line %d: list handed on from the line before: %v", i+2, handed)
				}
			}
			if name == "r.jsonl" {
				text, _ := os.ReadFile(path)
				lines := strings.Split(string(text), "\n")
				if n := strings.Count(string(text), `"rule":"a"`); n != 3 {
					t.Fatalf("finding a written %d times, want 3 (lines 2, 8, 16)", n)
				}
				for _, c := range []struct {
					line int
					want string
				}{{3, `"seen_findings":[0,1]`}, {12, `"same_findings":[0,1]`}, {14, `"seen_findings":[0]`}} {
					if !strings.Contains(lines[c.line], c.want) || strings.Contains(lines[c.line], `"findings"`) != (c.line == 14) {
						t.Fatalf("line %d: %s\nwant it to list %s", c.line+1, lines[c.line], c.want)
					}
				}
			}
		})
	}
}

// A version 2 recording wrote every line's findings; lists it could not
// have written are ignored there, as any unknown field.
func TestFindingListsIgnoredBeforeVersion3(t *testing.T) {
	hdr := `{"gpuscope_recording":2,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}`
	in := hdr + "\n" + `{"time":"2026-05-01T12:00:00Z","gpus":[],"findings":[{"rule":"a"}]}` + "\n" +
		`{"time":"2026-05-01T12:00:01Z","gpus":[],"same_findings":[0]}` + "\n"
	r, err := NewReader(strings.NewReader(in), "v2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if len(got) != 2 || string(got[0].Findings) != `[{"rule":"a"}]` || got[1].Findings != nil {
		t.Fatalf("read %+v", got)
	}
}

// A position listed with no finding to take it from (the line before was
// damaged and skipped, or a hand-edited file) is left out, never made up.
func TestListedFindingWithoutOneBeforeIsLeftOut(t *testing.T) {
	hdr := `{"gpuscope_recording":3,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}`
	in := hdr + "\n" + `{"time":"2026-05-01T12:00:00Z","gpus":[],"findings":[{"rule":"a","last_seen":"x"}]}` + "\n" +
		`{"time":"2026-05-01T12:00:01Z","gpus":[],"same_findings":[1,7],"seen_findings":[0],"findings":[{"rule":"b"}]}` + "\n"
	r, err := NewReader(strings.NewReader(in), "v3", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if want := `[{"rule":"a","last_seen":"2026-05-01T12:00:01Z"},{"rule":"b"}]`; len(got) != 2 || string(got[1].Findings) != want {
		t.Fatalf("read %+v, want second findings %s", got, want)
	}
}

func TestScanFindsTopLevelKeysOnly(t *testing.T) {
	f := finding("a", 0, `e "last_seen":"no"`, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	s, e, ok := stringValue([]byte(f), "last_seen")
	if !ok || f[s:e] != `"2026-05-01T12:00:00Z"` {
		t.Fatalf("last_seen at %d:%d (%v) of %s", s, e, ok, f)
	}
	items, ok := splitArray([]byte(" [ " + f + " , {\"b\":[1,{}]} ] "))
	if !ok || len(items) != 2 || string(items[0]) != f || string(items[1]) != `{"b":[1,{}]}` {
		t.Fatalf("split %q", items)
	}
	for _, bad := range []string{"null", "", "[", `["a]`, "{}"} {
		if _, ok := splitArray([]byte(bad)); ok {
			t.Fatalf("%q split as a list", bad)
		}
	}
	if items, ok := splitArray([]byte("[]")); !ok || len(items) != 0 {
		t.Fatalf("[] split as %q", items)
	}
}
