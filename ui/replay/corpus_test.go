package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
)

// At its end, replay shows on every corpus file what check --from ends
// with: the findings of one Tracker over the whole file (the same
// constructor, diagnose.NewEvidenceViewTracker, as ui/cli wires both).
func TestReplayEndsAsCheckOnTheCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../sampler/importer/testdata/*", "../../sampler/importer/testdata/real/*"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && filepath.Ext(p) != ".tsv" && filepath.Base(p) != "INDEX.md" {
				files = append(files, p)
			}
		}
	}
	if len(files) < 100 {
		t.Fatalf("%d corpus files", len(files))
	}
	key := func(fs []diagnose.Finding) map[string]string {
		out := map[string]string{}
		for _, f := range fs {
			out[fmt.Sprint(f.Rule, "/", f.GPU, "/", f.PID)] = f.Since.String()
		}
		return out
	}
	for _, path := range files {
		tl, _, err := spool.Load(path)
		if err != nil || len(tl) == 0 {
			continue // unreadable by both (TestCorpus holds which)
		}
		check := diagnose.NewEvidenceViewTracker(diagnose.Options{})
		var want *diagnose.Diagnosis
		for _, s := range tl {
			want = check.Observe(s).Diagnosis
		}
		var last *diagnose.Tracker
		opts := Options{UI: uiOptions(), NewTracker: func() *diagnose.Tracker {
			last = diagnose.NewEvidenceViewTracker(diagnose.Options{})
			return last
		}}
		nm, _ := New(tl, opts).Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if m := press(t, nm.(Model), "home", "end"); m.Cursor() != len(tl)-1 {
			t.Fatalf("%s: at %d of %d after end", path, m.Cursor(), len(tl))
		}
		got := last.Last()
		if g, w := key(got.Findings), key(want.Findings); fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s: replay ends with %v, check with %v", filepath.Base(path), g, w)
		}
	}
}
