// Package diagnose turns a window of snapshots into findings: why a GPU is
// not working harder, with the evidence and the first thing to try. Pure
// functions and a small hysteresis tracker; no I/O, no UI.
package diagnose

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Severity orders findings; higher is worse.
type Severity int

const (
	Info Severity = iota
	Warning
	Critical
)

var severityNames = [...]string{"info", "warning", "critical"}

// String is not inlined, as gpuIn.
//
//go:noinline
func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// MarshalJSON writes the lower-case name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a name ParseSeverity knows.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	v, err := ParseSeverity(n)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// severityAliases are the short spellings people type (--alert-min warn).
var severityAliases = map[string]Severity{"warn": Warning, "crit": Critical}

// ParseSeverity reads a severity from text: its name (info, warning,
// critical) in any case, or warn/crit. The one place that knows the
// spellings: flags, JSON and config all read severities through it.
func ParseSeverity(text string) (Severity, error) {
	n := strings.ToLower(strings.TrimSpace(text))
	for i, name := range severityNames {
		if name == n {
			return Severity(i), nil
		}
	}
	if v, ok := severityAliases[n]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or critical)", text)
}

// Finding is one diagnosis. Rule ids are a public interface (JSON, explain,
// Prometheus): see Rules.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	GPU      int      `json:"gpu"` // -1: the whole node
	PID      int      `json:"pid"` // 0: no single process
	Title    string   `json:"title"`
	Evidence string   `json:"evidence"` // the numbers that fired it
	Hint     string   `json:"hint"`     // the first thing to try
	// FixID names Hint for a reader in another language (ui/i18n's
	// "fix.<id>"); empty for advice built from a catalogue or a log, and
	// in recordings made before it existed.
	FixID string `json:"fix_id,omitempty"`
	// Estimated says which missing signal the finding was inferred without
	// (e.g. "no GPM: estimated from power"); empty when certain.
	Estimated string    `json:"estimated,omitempty"`
	Since     time.Time `json:"since"`
	LastSeen  time.Time `json:"last_seen"`
	// I18n is Title, Evidence and Estimated as messages, for a reader
	// in another language; nil on findings from a log or an older recording.
	I18n *FindingText `json:"i18n,omitempty"`
	// Uses are the readings an evidence finding (evidence.go) rests on, so
	// a report can point at the input lines; nil from the live rules.
	Uses []Use `json:"uses,omitempty"`
}

// Key is what makes two sightings the same finding for whoever merges or
// follows them over time (a report's episodes, the dashboard's cursor):
// its rule, GPU and process.
type Key struct {
	Rule     string
	GPU, PID int
}

// Key is f's identity (Key).
func (f *Finding) Key() Key { return Key{f.Rule, f.GPU, f.PID} }

// Worst is the highest severity among the findings, and false when there
// are none (`gpuscope check` exits by it).
func Worst(fs []Finding) (Severity, bool) {
	worst, any := Info, false
	for _, f := range fs {
		if !any || f.Severity > worst {
			worst, any = f.Severity, true
		}
	}
	return worst, any
}
