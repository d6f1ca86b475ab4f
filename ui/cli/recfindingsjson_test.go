package cli

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
)

var oddText = []string{"", "plain", "GPU 4 hardware slowdown", "temp 90 °C", "a<b>&c", "x&y", "a>b", `q"uote\`, "tab\tnl\n", "\x00\x1f\x7f", "u\x1f", "d\x7f", "bad\xffutf8", "line\u2028sep\u2029", "é", "中文", "\u00a7 6.2", "x\ud7ff"}

func oddString(r *rand.Rand) string { return oddText[r.IntN(len(oddText))] }

func oddTime(r *rand.Rand) time.Time {
	zones := []*time.Location{time.UTC, time.FixedZone("IST", 5*3600+1800), time.FixedZone("S", 3601), time.FixedZone("W", -8*3600)}
	year, zone := 2026, zones[r.IntN(2)]
	if r.IntN(6) == 0 {
		year, zone = []int{1, 0, 9999, 10000, -1}[r.IntN(5)], zones[r.IntN(len(zones))]
	}
	return time.Date(year, 12, 7, 12, 40, 14, r.IntN(2)*r.IntN(1e9), zone)
}

func oddMsg(r *rand.Rand, depth int) diagnose.Msg {
	m := diagnose.Msg{ID: oddString(r), Join: diagnose.Join(r.IntN(3) - r.IntN(2))}
	for range r.IntN(4) {
		if m.Args == nil {
			m.Args = map[string]string{}
		}
		m.Args[[]string{"GPU", "N", "Temp", "b", "a", "<k>", "é"}[r.IntN(6)+r.IntN(2)]] = oddString(r)
	}
	for range r.IntN(3) * min(1, 2-depth) * max(0, r.IntN(8)-6) {
		if m.Words == nil {
			m.Words = map[string]diagnose.Msg{}
		}
		m.Words[[]string{"Noun", "W", "z"}[r.IntN(3)]] = oddMsg(r, depth+1)
	}
	return m
}

// appendFinding writes what jsonv1.Marshal writes, or leaves the finding
// to it: findings filled at random, odd text, times and maps included.
func TestFindingJSONAsJsonv1(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	fast := 0
	for i := range 20000 {
		f := diagnose.Finding{Rule: oddString(r), Severity: diagnose.Severity(r.IntN(5) - 1), GPU: r.IntN(10) - 1, PID: r.IntN(1 << 20),
			Title: oddString(r), Evidence: oddString(r), Hint: oddString(r), FixID: oddString(r), Estimated: oddString(r),
			Since: oddTime(r), LastSeen: oddTime(r)}
		if r.IntN(4) > 0 {
			f.I18n = &diagnose.FindingText{Title: oddMsg(r, 0)}
			for range r.IntN(4) {
				f.I18n.Evidence = append(f.I18n.Evidence, oddMsg(r, 0))
			}
			for range r.IntN(2) {
				f.I18n.Estimated = append(f.I18n.Estimated, oddMsg(r, 0))
			}
		}
		for range r.IntN(3) {
			f.Uses = append(f.Uses, diagnose.Use{GPU: r.IntN(8), Field: oddString(r)})
		}
		got, ok := appendFinding([]byte("x"), &f)
		if !ok {
			continue
		}
		fast++
		want, err := jsonv1.Marshal(&f)
		if err != nil || !bytes.Equal(got[1:], want) {
			t.Fatalf("finding %d: %v\njsonv1: %s\nours:   %s", i, err, want, got[1:])
		}
	}
	if fast < 5000 {
		t.Fatalf("only %d of 20000 findings written without jsonv1", fast)
	}
}
