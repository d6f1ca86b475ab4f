package promsource

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSamplePairDecodesTheAPIsPairs(t *testing.T) {
	for _, c := range []struct {
		in   string
		ms   int64
		want float64
	}{
		{`[1700000000.5,"1"]`, 1700000000500, 1},
		{`[1700000000,"0.25"]`, 1700000000000, 0.25},
		{`[1700000000.123456,"-3e2"]`, 1700000000123, -300},
		{`[ 1700000000.07 , "+Inf" ]`, 1700000000070, math.Inf(1)},
		{`[1,"-Inf"]`, 1000, math.Inf(-1)},
	} {
		var p samplePair
		if err := json.Unmarshal([]byte(c.in), &p); err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if int64(p.Timestamp) != c.ms || p.Value != c.want {
			t.Errorf("%s = %d ms, %v; want %d ms, %v", c.in, p.Timestamp, p.Value, c.ms, c.want)
		}
	}
	var p samplePair
	if err := json.Unmarshal([]byte(`[1,"NaN"]`), &p); err != nil || !math.IsNaN(p.Value) {
		t.Errorf("NaN: %v %v", p.Value, err)
	}
	for _, bad := range []string{`[1,2]`, `["x","1"]`, `[1,"one"]`, `{}`, `[1.x,"1"]`} {
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if got := (promTime(1700000000500)).Time(); !got.Equal(time.Unix(1700000000, 5e8)) {
		t.Errorf("Time() = %v", got)
	}
}

func TestPromDurationIsPromQLs(t *testing.T) {
	// The literals Prometheus itself prints for these durations.
	for d, want := range map[time.Duration]string{
		0: "0s", 90 * time.Second: "1m30s", 2 * time.Minute: "2m", 1500 * time.Millisecond: "1s500ms",
		36 * time.Hour: "1d12h", 14 * 24 * time.Hour: "2w", 15 * 24 * time.Hour: "15d", -30 * time.Second: "-30s",
		365 * 24 * time.Hour: "1y",
	} {
		if got := promDuration(d); got != want {
			t.Errorf("promDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestValidLabelName(t *testing.T) {
	for s, want := range map[string]bool{"job": true, "_x9": true, "Hostname": true, "": false, "9a": false, "a-b": false, "é": false} {
		if validLabelName(s) != want {
			t.Errorf("validLabelName(%q) != %v", s, want)
		}
	}
	if _, err := New(Config{URL: "http://p:9090", JobLabel: "a-b"}); err == nil || !strings.Contains(err.Error(), "--job-label") {
		t.Errorf("a bad job label: %v", err)
	}
}

// A Prometheus answer is outside input: the pair decoder never panics, and
// a pair it accepts reads back the same when written the way Prometheus
// writes pairs (seconds with milliseconds, the value as a string).
func FuzzSamplePair(f *testing.F) {
	for _, s := range []string{`[1700000000.5,"1"]`, `[1,"NaN"]`, `[-1.5,"+Inf"]`, `[1e3,"1"]`, `[1.,"2"]`, `[null,null]`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p samplePair
		if json.Unmarshal(b, &p) != nil {
			return
		}
		ms := int64(p.Timestamp)
		sign := ""
		if ms < 0 {
			sign, ms = "-", -ms
		}
		again := fmt.Sprintf(`[%s%d.%03d,"%s"]`, sign, ms/1000, ms%1000, strconv.FormatFloat(p.Value, 'g', -1, 64))
		var q samplePair
		if err := json.Unmarshal([]byte(again), &q); err != nil || q.Timestamp != p.Timestamp ||
			(q.Value != p.Value && !(math.IsNaN(q.Value) && math.IsNaN(p.Value))) {
			t.Errorf("%q read as %+v; written back %s reads %+v (%v)", b, p, again, q, err)
		}
	})
}
