package cli

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// oddText has every class of text jsonv1 escapes or replaces: control
// bytes (the short escapes and \u00XX), quote and backslash, HTML's <>&,
// DEL, U+2028/9, invalid UTF-8 (a lone byte, a cut rune, a surrogate's
// bytes), and text it writes as it is (ASCII, two-, three-, four-byte runes).
var oddText = []string{"", "plain", "GPU 4 hardware slowdown", "temp 90 °C", "a<b>&c", "x&y", "a>b", `q"uote\`,
	"tab\tnl\n", "\b\f\r", "\x00\x1f\x7f", "u\x1f", "d\x7f", "bad\xffutf8", "cut\xe4\xb8", "\xed\xa0\x80sur", "line\u2028sep\u2029",
	"é", "中文", "\u00a7 6.2", "x\ud7ff", "\U0001F525 hot", "\ufffd", "\u2027\u202a"}

func oddString(r *rand.Rand) string { return oddText[r.IntN(len(oddText))] }

func oddTime(r *rand.Rand) time.Time {
	zones := []*time.Location{time.UTC, time.FixedZone("IST", 5*3600+1800), time.FixedZone("S", 3601), time.FixedZone("W", -8*3600),
		time.FixedZone("", 0), time.FixedZone("NPT", 5*3600+45*60)}
	year, zone := 2026, zones[[]int{0, 1, 3, 4, 5}[r.IntN(5)]]
	if r.IntN(6) == 0 {
		year, zone = []int{1, 0, 9999, 10000, -1}[r.IntN(5)], zones[r.IntN(len(zones))]
	}
	return time.Date(year, 12, 7, 12, 40, 14, r.IntN(2)*r.IntN(1e9), zone)
}

func oddMsg(r *rand.Rand, depth int) diagnose.Msg {
	m := diagnose.Msg{ID: oddString(r), Join: diagnose.Join(r.IntN(3) - r.IntN(2))}
	if r.IntN(5) == 0 {
		m.Args, m.Words = map[string]string{}, map[string]diagnose.Msg{} // empty, not nil: omitted alike
	}
	for range r.IntN(4) {
		if m.Args == nil {
			m.Args = map[string]string{}
		}
		m.Args[[]string{"GPU", "N", "Temp", "b", "a", "<k>", "a b", "\x01", "é", "\uff01", "\U0001F525", "\xff"}[r.IntN(8)+r.IntN(2)*r.IntN(5)]] = oddString(r)
	}
	for range r.IntN(3) * max(0, 2-depth) {
		if m.Words == nil {
			m.Words = map[string]diagnose.Msg{}
		}
		m.Words[[]string{"Noun", "W", "z", "Proc", "<w>"}[r.IntN(5)]] = oddMsg(r, depth+1)
	}
	return m
}

func oddFinding(r *rand.Rand) diagnose.Finding {
	f := diagnose.Finding{Rule: oddString(r), Severity: diagnose.Severity(r.IntN(5) - 1), GPU: r.IntN(10) - 1, PID: r.IntN(1 << 20),
		Title: oddString(r), Evidence: oddString(r), Hint: oddString(r), FixID: oddString(r), Estimated: oddString(r),
		Since: oddTime(r), LastSeen: oddTime(r)}
	if r.IntN(4) > 0 {
		f.I18n = &diagnose.FindingText{Title: oddMsg(r, 0)}
		if r.IntN(6) == 0 {
			f.I18n.Evidence, f.I18n.Estimated = diagnose.Text{}, diagnose.Text{}
		}
		for range r.IntN(4) {
			f.I18n.Evidence = append(f.I18n.Evidence, oddMsg(r, 0))
		}
		for range r.IntN(2) {
			f.I18n.Estimated = append(f.I18n.Estimated, oddMsg(r, 0))
		}
	}
	if r.IntN(6) == 0 {
		f.Uses = []diagnose.Use{}
	}
	for range r.IntN(3) {
		f.Uses = append(f.Uses, diagnose.Use{GPU: r.IntN(8), Field: oddString(r)})
	}
	return f
}

// sameAsJsonv1 fails t where appendFinding wrote f otherwise than
// jsonv1.Marshal; false where it left f to jsonv1.
func sameAsJsonv1(t testing.TB, w *fjson, f *diagnose.Finding) bool {
	t.Helper()
	w.b = append(w.b[:0], 'x') // written after what the buffer holds
	got, ok := appendFinding(w, f)
	if !ok {
		return false
	}
	want, err := jsonv1.Marshal(f)
	if err != nil || !bytes.Equal(got[1:], want) {
		t.Fatalf("%v\njsonv1: %s\nours:   %s", err, want, got[1:])
	}
	return true
}

// appendFinding writes what jsonv1.Marshal writes, or leaves the finding
// to it: findings filled at random, odd text, times and maps included.
func TestFindingJSONAsJsonv1(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	fast := 0
	var w fjson
	for range 20000 {
		f := oddFinding(r)
		if sameAsJsonv1(t, &w, &f) {
			fast++
		}
	}
	if fast < 10000 {
		t.Fatalf("only %d of 20000 findings written without jsonv1", fast)
	}
}

// Every demo scenario's findings, each second of its first three minutes,
// are written without jsonv1 and as it writes them.
func TestDemoFindingsJSONAsJsonv1(t *testing.T) {
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	var w fjson
	n := 0
	for _, sc := range sim.Scenarios() {
		demo, err := node.NewDemo(sc.ID, 1, start)
		if err != nil {
			t.Fatal(err)
		}
		s := demo.Sampler(sc.ID)
		tr := diagnose.NewTracker(diagnose.Options{})
		for at := start; at.Before(start.Add(3 * time.Minute)); at = at.Add(time.Second) {
			fs := tr.Push(s.Tick(at))
			for i := range fs {
				if !sameAsJsonv1(t, &w, &fs[i]) {
					t.Fatalf("%s: %s left to jsonv1", sc.ID, fs[i].Rule)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d findings in the demo's scenarios", n)
	}
}

// FuzzFindingJSON: a finding built from the fuzzer's text, numbers and
// times (any instant, any offset) is written as jsonv1 writes it, or left
// to jsonv1.
func FuzzFindingJSON(f *testing.F) {
	f.Add("thermal", "GPU 4 <hot> & \"slow\"", "k", "v\u2028", int64(1796646014), int64(5*3600+1800), int64(3), uint64(1))
	f.Add("\xff", "\x00\t", "é", "中文", int64(-62135596800), int64(-1), int64(-1), uint64(7))
	f.Add("", "", "", "", int64(253402300800), int64(3601), int64(0), uint64(0))
	f.Fuzz(func(t *testing.T, a, b, k, v string, sec, off, n int64, seed uint64) {
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		fd := oddFinding(r)
		fd.Rule, fd.Title, fd.Evidence, fd.Hint = a, b, a+b, v
		at := time.Unix(sec, n).In(time.FixedZone(k, int(off%(30*3600))))
		fd.Since, fd.LastSeen = at, at.Add(time.Duration(n))
		if fd.I18n != nil {
			fd.I18n.Title.Args = map[string]string{k: v, a: b}
			fd.I18n.Title.Words = map[string]diagnose.Msg{v: {ID: k, Args: map[string]string{b: a}}}
		}
		var w fjson
		sameAsJsonv1(t, &w, &fd)
	})
}
