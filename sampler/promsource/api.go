package promsource

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The Prometheus HTTP API's values, decoded here rather than through
// prometheus/common/model: that module (with its HTTP config) cost the
// binary 6.1 MB (docs/benchmarks.md, "What each dependency costs").
// Formats: [prometheus-api] §Expression query result formats.

// metric is one series' label set ("metric" in the API's answers).
type metric map[string]string

// metricNameLabel is the label that holds a series' name.
const metricNameLabel = "__name__"

// promTime is a sample's time in milliseconds since the epoch.
type promTime int64

func (t promTime) Time() time.Time { return time.UnixMilli(int64(t)) }

// samplePair is one [<unix seconds>, "<value>"] pair.
type samplePair struct {
	Timestamp promTime
	Value     float64
}

// UnmarshalJSON reads the pair: the time a JSON number of seconds with up
// to millisecond precision, the value a string so NaN and ±Inf survive.
func (p *samplePair) UnmarshalJSON(b []byte) error {
	var raw [2]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("sample pair %s: %w", clip(b), err)
	}
	ts, err := parseUnixSeconds(string(bytes.TrimSpace(raw[0])))
	if err != nil {
		return fmt.Errorf("sample time %s: %w", clip(raw[0]), err)
	}
	var s string
	if err := json.Unmarshal(raw[1], &s); err != nil {
		return fmt.Errorf("sample value %s: want a quoted number", clip(raw[1]))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("sample value %q: not a number", s)
	}
	p.Timestamp, p.Value = ts, v
	return nil
}

// parseUnixSeconds reads "1700000000.123" exactly (no float rounding of
// the milliseconds).
func parseUnixSeconds(s string) (promTime, error) {
	whole, frac, _ := strings.Cut(s, ".")
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, err
	}
	frac = (frac + "000")[:3]
	ms, err := strconv.ParseUint(frac, 10, 16)
	if err != nil {
		return 0, err
	}
	if strings.HasPrefix(whole, "-") {
		return promTime(sec*1000 - int64(ms)), nil
	}
	return promTime(sec*1000 + int64(ms)), nil
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// sampleStream is one series of a range query's matrix.
type sampleStream struct {
	Metric metric       `json:"metric"`
	Values []samplePair `json:"values"`
	// name is the series' name where Metric, shared by the series of one
	// label set, holds none (the scrape ring's streams).
	name string
}

// seriesName is the stream's series name.
func (ss *sampleStream) seriesName() string {
	if ss.name != "" {
		return ss.name
	}
	return ss.Metric[metricNameLabel]
}

// validLabelName: [a-zA-Z_][a-zA-Z0-9_]* ([prometheus-data-model] §Metric
// names and labels).
func validLabelName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// promDuration writes d as PromQL's duration literal (90s → "1m30s"),
// down to milliseconds; years and weeks only when exact, as Prometheus
// formats them.
func promDuration(d time.Duration) string {
	ms := d.Milliseconds()
	if ms == 0 {
		return "0s"
	}
	var b strings.Builder
	if ms < 0 {
		b.WriteByte('-')
		ms = -ms
	}
	const day = 24 * 3600 * 1000
	for _, u := range []struct {
		name  string
		mult  int64
		exact bool
	}{{"y", 365 * day, true}, {"w", 7 * day, true}, {"d", day, false}, {"h", 3600 * 1000, false},
		{"m", 60 * 1000, false}, {"s", 1000, false}, {"ms", 1, false}} {
		if u.exact && ms%u.mult != 0 {
			continue
		}
		if v := ms / u.mult; v > 0 {
			fmt.Fprintf(&b, "%d%s", v, u.name)
			ms -= v * u.mult
		}
	}
	return b.String()
}
