package record

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// blanked is l as the writer once wrote it: a copy with what the marks
// skip set to zero, for jsonv1 to encode.
func blanked(l wireEntry) wireEntry {
	if len(l.gpuSkip) > 0 {
		l.GPUs = slices.Clone(l.GPUs)
		for i, s := range l.gpuSkip {
			g := &l.GPUs[i]
			if s&skipStatic != 0 {
				gpuStatic{}.setOn(g)
			}
			if s&skipSteady != 0 {
				gpuSteady{}.setOn(g)
			}
			if s&skipLinks != 0 {
				g.NVLinks = nil
			}
		}
	}
	if len(l.skipProcs) > 0 && l.Host != nil {
		h := *l.Host
		h.Procs = maps.Clone(h.Procs)
		for _, pid := range l.skipProcs {
			if p := h.Procs[pid]; p != nil {
				cp := *p
				procStatic{}.setOn(&cp)
				h.Procs[pid] = &cp
			}
		}
		l.Host = &h
	}
	l.gpuSkip, l.skipProcs = nil, nil
	return l
}

func jsonv1Line(t *testing.T, l wireEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := jsonv1.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return nil // refused: the encoder must refuse it too
	}
	return b.Bytes()
}

// The fields the writer skips are those a blanked copy omits: entries
// filled at random (each process's PID its key now and then, so its
// statics can be the same), each written twice so that the second line
// skips what the first wrote, encoded by the marks and, blanked, by jsonv1.
func TestSkipsWriteTheBlankedCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	skipped := [3]int{}
	procs := 0
	for i := range 3000 {
		var e Entry
		fill(r, reflect.ValueOf(&e).Elem(), 0)
		if e.Host != nil {
			for pid, p := range e.Host.Procs {
				if p != nil && r.IntN(2) == 0 {
					p.PID = pid
				}
			}
		}
		var w Writer
		for range 2 {
			l := w.stat.elide(e)
			w.slow.elide(&l)
			for _, s := range l.gpuSkip {
				for b := range skipped {
					if s&(1<<b) != 0 {
						skipped[b]++
					}
				}
			}
			procs += len(l.SameProcs)
			want := jsonv1Line(t, blanked(l))
			got, err := w.enc.entry(&l)
			if want == nil && err == nil || want != nil && !bytes.Equal(got, want) {
				t.Fatalf("entry %d: %v\njsonv1: %s\nours:   %s", i, err, want, got)
			}
		}
	}
	if skipped[0] == 0 || skipped[1] == 0 || skipped[2] == 0 || procs == 0 {
		t.Fatalf("nothing skipped: GPUs %v, processes %d", skipped, procs)
	}
}

// The process map's key order kept from the line before is the one
// sorting gives: keys that stay, come, go and are renamed between lines.
func TestProcessKeysKeptInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var e lineEncoder
	m := map[int]*sampler.Proc{}
	for i := range 2000 {
		switch r.IntN(4) {
		case 0:
			m[r.IntN(2000)] = &sampler.Proc{}
		case 1:
			for k := range m {
				delete(m, k)
				m[k*10+r.IntN(10)] = nil
				break
			}
		}
		var want bytes.Buffer
		enc := jsonv1.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
		e.b = e.b[:0]
		e.procs(m, planOf(reflect.TypeFor[sampler.Proc](), 0))
		e.b = append(e.b, '\n')
		if !bytes.Equal(e.b, want.Bytes()) {
			t.Fatalf("step %d:\njsonv1: %s\nours:   %s", i, want.Bytes(), e.b)
		}
	}
}
