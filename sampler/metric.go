package sampler

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Metric is one reading that may be unavailable. A field NVML answers with
// NOT_SUPPORTED or NO_PERMISSION, or that a log simply lacks, is a zero Metric
// and renders as "n/a": not supported is data, never an error
// (docs/snapshot-json.md, "Conventions").
// In JSON a missing reading is null (or omitted with omitzero).
type Metric struct {
	V  float64
	OK bool
}

// Some wraps a present reading.
func Some(v float64) Metric { return Metric{V: v, OK: true} }

// NA is the unavailable reading.
var NA = Metric{}

// Or returns the value, or def when the reading is unavailable.
func (m Metric) Or(def float64) float64 {
	if m.OK {
		return m.V
	}
	return def
}

// IsZero reports an unavailable reading, so `json:",omitzero"` drops it.
func (m Metric) IsZero() bool { return !m.OK }

var null = []byte("null")

// MarshalJSON writes the number, or null when unavailable. NaN and ±Inf
// (a division by a zero interval, say) are not JSON numbers: they are n/a too.
func (m Metric) MarshalJSON() ([]byte, error) {
	if !m.OK || math.IsNaN(m.V) || math.IsInf(m.V, 0) {
		return null, nil
	}
	return strconv.AppendFloat(nil, m.V, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number or null.
func (m *Metric) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, null) {
		*m = NA
		return nil
	}
	// strconv, not json.Unmarshal: the decoder hands over a valid JSON
	// literal, and a nested Unmarshal per reading made recordings read ~2x slower.
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("metric: %s is not a number or null", b)
	}
	*m = Some(v)
	return nil
}
