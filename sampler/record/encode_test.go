package record

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"
)

// TestLineEncoderAgrees holds lineEncoder to the jsonv1 encoder it
// replaced, byte for byte, on entries whose every field (a field added to
// sampler's structs included) is filled at random: zero or not, odd text,
// odd numbers, odd times. Where jsonv1 refuses an entry, so must it.
func TestLineEncoderAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		checkLine(t, r, i)
	}
}

// FuzzLineEncoder is TestLineEncoderAgrees from the fuzzer's seeds.
func FuzzLineEncoder(f *testing.F) {
	for _, s := range []uint64{0, 1, 42} {
		f.Add(s, s+1)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkLine(t, rand.New(rand.NewPCG(a, b)), 0)
	})
}

func checkLine(t *testing.T, r *rand.Rand, i int) {
	t.Helper()
	var l wireEntry
	fill(r, reflect.ValueOf(&l).Elem(), 0)
	var want bytes.Buffer
	enc := jsonv1.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	werr := enc.Encode(l)
	var e lineEncoder
	got, err := e.entry(&l)
	if (werr != nil) != (err != nil) {
		t.Fatalf("entry %d: jsonv1's error %v, the line encoder's %v", i, werr, err)
	}
	if werr == nil && !bytes.Equal(got, want.Bytes()) {
		n := 0
		for n < min(len(got), len(want.Bytes())) && got[n] == want.Bytes()[n] {
			n++
		}
		t.Fatalf("entry %d differs at byte %d:\njsonv1: %s\nours:   %s", i, n, want.Bytes()[n:min(n+200, want.Len())], got[n:min(n+200, len(got))])
	}
}

var (
	oddStrings = []string{"", "gpu", "a<b>&c", `q"uote`, `back\slash`, "tab\tnew\nline", "日本", "\u2028", "bad\xff", "del\x7f", "~ }{"}
	oddFloats  = []float64{0, 1, -1, 42.5, 0.1, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1.5e300, 5e-324, math.Copysign(0, -1), math.NaN(), math.Inf(1)}
	oddInts    = []int64{0, 1, -1, 7, 9, 10, 100, 65535, 1 << 40}
	zones      = []*time.Location{time.UTC, time.FixedZone("IST", 5*3600+1800), time.FixedZone("W", -8*3600), time.FixedZone("S", 3601)}
	rawLists   = []string{"", "[]", `[{"rule":"x","last_seen":"2026-01-01T00:00:00Z"}]`, ` [ 1 , {"a" : "<&>"} ]`, "null", "[1,"}
)

func fill(r *rand.Rand, v reflect.Value, depth int) {
	if depth > 6 || r.IntN(4) == 0 {
		return // the zero value: omitempty and omitzero
	}
	switch v.Interface().(type) {
	case time.Time:
		year := 1970 + r.IntN(130)
		if r.IntN(50) == 0 {
			year = []int{-1, 0, 9999, 10000}[r.IntN(4)]
		}
		ns := 0
		if r.IntN(2) == 0 {
			ns = r.IntN(1e9)
		}
		v.Set(reflect.ValueOf(time.Date(year, time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), ns, zones[r.IntN(len(zones))])))
		return
	case json.RawMessage:
		if s := rawLists[r.IntN(len(rawLists))]; s != "" {
			v.SetBytes([]byte(s))
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	case reflect.String:
		v.SetString(oddStrings[r.IntN(len(oddStrings))])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(oddInts[r.IntN(len(oddInts))] * int64(1-2*r.IntN(2)))
	case reflect.Uint64, reflect.Uint32, reflect.Uint:
		v.SetUint(uint64(oddInts[r.IntN(len(oddInts))]))
	case reflect.Float64:
		v.SetFloat(oddFloats[r.IntN(len(oddFloats))])
	case reflect.Slice:
		n := r.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, 0)
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	}
}

// A node's lines, whole and elided, encode as jsonv1 encodes them.
func TestLineEncoderAgreesOnTheDemo(t *testing.T) {
	var w Writer
	for i := range 50 {
		s := realisticSnapshot(i)
		for _, l := range []wireEntry{{Entry: Entry{Snapshot: s}}, w.stat.elide(Entry{Snapshot: s})} {
			var want bytes.Buffer
			enc := jsonv1.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(blanked(l)); err != nil {
				t.Fatal(err)
			}
			got, err := w.enc.entry(&l)
			if err != nil || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("snapshot %d: %v\njsonv1: %s\nours:   %s", i, err, want.Bytes(), got)
			}
		}
	}
}
