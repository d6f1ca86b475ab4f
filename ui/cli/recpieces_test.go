package cli

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// listOnly hides recordFindings' FindingsItems: the writer splits and
// scans the list, as for any other findings value.
type listOnly struct{ r recordFindings }

func (l listOnly) FindingsJSON() ([]byte, error) { return l.r.FindingsJSON() }

// The findings handed in pieces write the same file, byte for byte, as
// the list scanned by the writer, over 1,500 lines (members of 600 lines,
// findings seen again, changed, dropped, added, reordered, seen at
// another time than the line's, in another zone), and it reads back as
// each line's list.
func TestFindingsPiecesWriteTheSameFile(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	mk := func(i int) diagnose.Finding {
		return diagnose.Finding{Rule: "rule", GPU: i % 8, PID: 100 + i, Title: "t", Evidence: "e", Hint: "h", Since: at,
			I18n: &diagnose.FindingText{Title: diagnose.Msg{ID: "t", Args: map[string]string{"n": "1"}},
				Evidence: diagnose.Text{{ID: "e", Words: map[string]diagnose.Msg{"w": {ID: "x"}}}}}}
	}
	dir := t.TempDir()
	var texts [2]findingsText
	var togs [2]*record.Toggle
	for k := range togs {
		w, err := record.Create(filepath.Join(dir, []string{"pieces", "list"}[k]+".jsonl.gz"), record.Header{})
		if err != nil {
			t.Fatal(err)
		}
		togs[k] = record.NewToggle("", func() time.Duration { return time.Second })
		if err := togs[k].Start(w); err != nil {
			t.Fatal(err)
		}
	}
	var fs []diagnose.Finding
	var want [][]byte
	for step := range 1500 {
		at = at.Add(time.Second)
		next := slices.Clone(fs)
		switch k := r.IntN(12); {
		case k == 0:
			next = append(next, mk(step))
		case k == 1 && len(next) > 0:
			next = slices.Delete(next, 0, 1)
		case k == 2 && len(next) > 1:
			next[0], next[1] = next[1], next[0]
		case k == 3 && len(next) > 0:
			changeOneField(&next[r.IntN(len(next))], step)
		case k == 4:
			next = nil
		}
		for i := range next {
			switch next[i].LastSeen = at; r.IntN(9) {
			case 0:
				next[i].LastSeen = at.In(time.FixedZone("x", 3600))
			case 1:
				next[i].LastSeen = at.Add(-time.Second)
			}
		}
		fs = next
		snap := sampler.Snapshot{Time: at}
		if err := togs[0].Write(snap, recordFindings{&texts[0], fs}); err != nil {
			t.Fatal(err)
		}
		if err := togs[1].Write(snap, listOnly{recordFindings{&texts[1], fs}}); err != nil {
			t.Fatal(err)
		}
		b, _ := jsonv1.Marshal(fs)
		want = append(want, b)
	}
	var files [2][]byte
	for k := range togs {
		if _, err := togs[k].Stop(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, []string{"pieces", "list"}[k]+".jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		files[k] = b
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("the pieces wrote %d bytes, the list %d: not the same", len(files[0]), len(files[1]))
	}
	rd, err := record.Open(filepath.Join(dir, "pieces.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for i := 0; ; i++ {
		e, err := rd.Next()
		if err == io.EOF {
			if i != len(want) {
				t.Fatalf("read %d lines, wrote %d", i, len(want))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := []byte(e.Findings); !bytes.Equal(got, want[i]) && !(len(got) == 0 && string(want[i]) == "null") {
			t.Fatalf("line %d reads\n%s\nwritten\n%s", i, got, want[i])
		}
	}
}
