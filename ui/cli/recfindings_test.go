package cli

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
)

// TestFindingsTextAgrees holds findingsText to jsonv1.Marshal of the list
// over a diagnosis that mostly only sees its findings again and sometimes
// changes one, drops one, adds one or reorders them.
func TestFindingsTextAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	mk := func(i int) diagnose.Finding {
		return diagnose.Finding{Rule: []string{"thermal", "input_starved", "a<b>&c"}[i%3], Severity: diagnose.Severity(i % 3), GPU: i % 8, PID: 100 + i,
			Title: "title <x> " + string(rune('a'+i%26)), Evidence: "ev", Hint: "h", Since: at,
			I18n: &diagnose.FindingText{Title: diagnose.Msg{ID: "t", Args: map[string]string{"n": "1"}},
				Evidence: diagnose.Text{{ID: "e", Words: map[string]diagnose.Msg{"w": {ID: "x"}}, Join: diagnose.Join(i % 2)}}}}
	}
	var c findingsText
	var fs []diagnose.Finding
	for step := range 3000 {
		at = at.Add(time.Second)
		next := slices.Clone(fs)
		switch k := r.IntN(20); {
		case k == 0:
			next = append(next, mk(step))
		case k == 1 && len(next) > 0:
			next = slices.Delete(next, 0, 1)
		case k == 2 && len(next) > 1:
			next[0], next[1] = next[1], next[0]
		case k == 3 && len(next) > 0:
			i := r.IntN(len(next))
			t := *next[i].I18n
			t.Title.Args = map[string]string{"n": string(rune('0' + step%10))}
			next[i].I18n = &t
		case k == 4 && len(next) > 0:
			next[r.IntN(len(next))].Severity++
		case k == 5:
			next = nil
		case k == 6 && len(next) > 0:
			changeOneField(&next[r.IntN(len(next))], step)
		}
		for i := range next {
			next[i].LastSeen = at
			if r.IntN(7) == 0 {
				next[i].LastSeen = at.In(time.FixedZone("x", 3600))
			}
		}
		fs = next
		want, err := jsonv1.Marshal(fs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := recordFindings{&c, fs}.FindingsJSON()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("step %d: %v\njsonv1: %s\nours:   %s", step, err, want, got)
		}
	}
}

// changeOneField changes one of the fields a finding's JSON shows, each
// in turn: a comparison that misses one writes the text before.
func changeOneField(f *diagnose.Finding, step int) {
	n := string(rune('a' + step%26))
	t := *f.I18n
	switch step % 13 {
	case 0:
		f.Rule += n
	case 1:
		f.GPU++
	case 2:
		f.PID++
	case 3:
		f.Title += n
	case 4:
		f.Evidence += n
	case 5:
		f.Hint += n
	case 6:
		f.FixID += n
	case 7:
		f.Estimated += n
	case 8:
		f.Since = f.Since.Add(time.Second)
	case 9:
		f.Uses = append(slices.Clip(f.Uses), diagnose.Use{GPU: step % 8, Field: n})
	case 10:
		t.Title.ID += n
	case 11:
		t.Evidence = slices.Clone(t.Evidence)
		t.Evidence[0].Words = map[string]diagnose.Msg{"w": {ID: n}}
	case 12:
		t.Evidence = slices.Clone(t.Evidence)
		t.Evidence[0].Join++
		t.Estimated = append(slices.Clip(t.Estimated), diagnose.Msg{ID: n})
	}
	f.I18n = &t
}
