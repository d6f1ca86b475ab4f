package summary

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// defaultDiagnoseEvery: when findings are recomputed, the one Tracker runs
// the rules once per 10 s of log time, not per sample (diagnose.Options.Every:
// its hysteresis is in time, so findings open within one stride of the live
// loop's). Each run still sees every sample of its 120 s window
// (diagnose.DefaultWindow), so nothing is missed; only first/last seen
// coarsen to 10 s. One run costs ~0.5 ms for 8 GPUs (diagnose
// BenchmarkEngineEvaluate8GPUs120s), so a 24-hour log at 1 s takes ~4 s
// instead of ~45 s (docs/benchmarks.md).
const defaultDiagnoseEvery = 10 * time.Second

// Finding is one diagnosis merged over the range: every time the same rule
// was open for the same GPU and process.
type Finding struct {
	Rule      string            `json:"rule"`
	Severity  diagnose.Severity `json:"severity"` // the worst seen
	GPU       int               `json:"gpu"`      // -1: the whole node
	PID       int               `json:"pid"`      // 0: no single process
	Title     string            `json:"title"`
	Evidence  string            `json:"evidence"` // the latest
	Hint      string            `json:"hint"`     // the latest
	FixID     string            `json:"fix_id,omitempty"`
	Estimated string            `json:"estimated,omitempty"`
	// I18n is the latest title, evidence and estimate as messages, for a
	// report in another language (absent in older recordings).
	I18n      *diagnose.FindingText `json:"i18n,omitempty"`
	FirstSeen time.Time             `json:"first_seen"`
	LastSeen  time.Time             `json:"last_seen"`
	// Episodes counts separate openings; OpenSeconds sums, over them, the
	// time from first to last sighting.
	Episodes    int     `json:"episodes"`
	OpenSeconds float64 `json:"open_seconds"`
	// Spans are the openings, first to last sighting each (the HTML
	// report draws them on the GPU's chart); past maxSpans the last one
	// stretches to cover the rest.
	Spans []Span `json:"spans,omitempty"`
	// Lines are the input lines the finding rests on ("section 2
	// (nvidia-smi table) line 14"), where the input says (pasted text).
	Lines []string `json:"lines,omitempty"`
}

// Span is one opening of a finding: its first and last sighting.
type Span struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// maxSpans bounds the openings kept per finding: a flapping finding over a
// day could open thousands of times, and a chart cannot show more bands
// than it has pixels anyway.
const maxSpans = 200

type trackedFinding struct {
	f       Finding
	lastObs int // observation number at which it was last open
	// texts locates the title, evidence and hint of the latest sighting
	// of a recorded finding: read at the end (see findingSource.addRecorded).
	texts textRef
	uses  []diagnose.Use // the latest sighting's readings, for Lines
}

// textRef is one finding of one recorded line: the i-th of its list.
type textRef struct {
	lineText
	i int
}

// lineText is a recorded line's findings: raw, or list where the reader
// handed them on unbuilt (importer.File.NextList), or items, each
// finding's text apart, where the recorder handed them (Values).
type lineText struct {
	raw   json.RawMessage
	list  *importer.Findings
	items [][]byte
}

// text is the list's text; nil for none.
func (l lineText) text() json.RawMessage {
	if l.raw == nil && l.list != nil {
		return l.list.Text()
	}
	return l.raw
}

// findingTracker merges the findings open at successive observations.
type findingTracker struct {
	byKey   map[diagnose.Key]*trackedFinding
	obs     int
	prevObs time.Time
}

// observe merges the findings open at one instant. texts, when set, is the
// line open was read from: then open carries no texts, and the latest
// sighting's are read from it by sorted.
func (t *findingTracker) observe(at time.Time, open []diagnose.Finding, texts lineText) {
	if t.byKey == nil {
		t.byKey = map[diagnose.Key]*trackedFinding{}
	}
	var dt time.Duration
	if t.obs > 0 {
		if d := at.Sub(t.prevObs); d > 0 && d <= maxSampleGap {
			dt = d
		}
	}
	for i := range open {
		f := &open[i]
		k := f.Key()
		tf := t.byKey[k]
		switch {
		case tf == nil:
			tf = &trackedFinding{f: Finding{Rule: f.Rule, Severity: f.Severity, GPU: f.GPU, PID: f.PID,
				FirstSeen: at, Episodes: 1, Spans: []Span{{at, at}}}}
			t.byKey[k] = tf
		case tf.lastObs == t.obs:
			continue // the same key twice in one observation
		case tf.lastObs == t.obs-1:
			tf.f.OpenSeconds += dt.Seconds()
		default:
			tf.f.Episodes++
			if len(tf.f.Spans) < maxSpans {
				tf.f.Spans = append(tf.f.Spans, Span{at, at})
			}
		}
		tf.f.Spans[len(tf.f.Spans)-1].To = at
		tf.lastObs = t.obs
		tf.f.Severity = max(tf.f.Severity, f.Severity)
		tf.f.wordsOf(f)
		tf.texts, tf.uses = textRef{texts, i}, f.Uses
		tf.f.LastSeen = at
	}
	t.obs++
	t.prevObs = at
}

// sorted returns the merged findings, worst first, then longest open, then
// in the canonical rule order; where names the input lines of their
// readings (nil: unknown).
func (t *findingTracker) sorted(where func(int, string) string) []Finding {
	out := make([]Finding, 0, len(t.byKey))
	lines := map[*byte][]diagnose.Finding{} // each recorded line read once
	for _, tf := range t.byKey {
		if tf.texts.items != nil {
			if f, ok := itemWords(tf.texts.items, tf.texts.i); ok {
				tf.f.wordsOf(&f)
			}
		} else if raw := tf.texts.text(); raw != nil {
			full, ok := lines[&raw[0]]
			if !ok {
				full = nil
				if jsonv1.Unmarshal(raw, &full) != nil {
					full = nil // its head read, so only its texts are lost
				}
				lines[&raw[0]] = full
			}
			if tf.texts.i < len(full) {
				f := &full[tf.texts.i]
				tf.f.wordsOf(f)
			}
		}
		if tf.f.FixID == "" { // a recording made before findings carried it
			tf.f.FixID = diagnose.FixIDOf(tf.f.Hint)
		}
		tf.f.Lines = evidenceLines(tf.uses, where)
		out = append(out, tf.f)
	}
	sortFindings(out)
	return out
}

// wordsOf takes f's words, the latest seen.
func (s *Finding) wordsOf(f *diagnose.Finding) {
	s.Title, s.Evidence, s.Hint, s.FixID, s.Estimated, s.I18n = f.Title, f.Evidence, f.Hint, f.FixID, f.Estimated, f.I18n
}

// sortFindings orders worst first, then longest open, then in the
// canonical rule order.
func sortFindings(out []Finding) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.OpenSeconds != b.OpenSeconds {
			return a.OpenSeconds > b.OpenSeconds
		}
		if ra, rb := diagnose.RuleOrder(a.Rule), diagnose.RuleOrder(b.Rule); ra != rb {
			return ra < rb
		}
		if a.GPU != b.GPU {
			return a.GPU < b.GPU
		}
		return a.PID < b.PID
	})
}

// findingSource decides, at the first snapshot in range, whether to use the
// findings a recording stored or to run the diagnosis here: the one
// diagnose.Tracker, with the evidence path for logs without host data, at
// a stride of every. Either way each snapshot is observed with the
// findings in force at it.
type findingSource struct {
	decided, recorded bool
	every             time.Duration
	tracker           findingTracker

	// recorded mode. kept and written: this line's findings by position,
	// those of the line before and the others (delta), whose heads are
	// still in heads when headsOK.
	kept     []bool
	written  json.RawMessage
	headsOK  bool
	heads    []findingHead
	fresh    []findingHead // the written findings' heads (fromDelta)
	spare    []findingHead // the next line's heads, built beside heads
	decoded  []diagnose.Finding
	badLines int
	firstBad string

	// recomputed mode: the latest snapshot is observed once the next one
	// came or at finish, so the last one gets the Tracker's Flush.
	diag    *diagnose.Tracker
	pending bool
	lastAt  time.Time
	lastFs  []diagnose.Finding
}

func newFindingSource(every time.Duration) findingSource {
	if every <= 0 {
		every = defaultDiagnoseEvery
	}
	return findingSource{every: every}
}

func (s *findingSource) observe(snap sampler.Snapshot) *diagnose.Diagnosis {
	if s.diag == nil {
		s.diag = diagnose.NewEvidenceTracker(diagnose.Options{Every: s.every})
	}
	return s.diag.Observe(snap).Diagnosis
}

// warm feeds a snapshot before the range to the diagnosis, so the window
// and the hysteresis reach back before From; a recording's (raw findings
// present) needs none.
func (s *findingSource) warm(snap sampler.Snapshot, raw json.RawMessage, list *importer.Findings) {
	if raw == nil && list == nil {
		s.observe(snap)
	}
}

func (s *findingSource) add(snap sampler.Snapshot, raw lineText) error {
	if !s.decided {
		s.decided, s.recorded = true, raw.raw != nil || raw.list != nil
	}
	if s.recorded {
		s.addRecorded(snap.Time, raw)
		return nil
	}
	if s.pending {
		s.tracker.observe(s.lastAt, s.lastFs, lineText{})
	}
	s.pending, s.lastAt, s.lastFs = true, snap.Time, s.observe(snap).Findings
	return nil
}

// findingHead is what Build reads of each recorded finding on every line.
// The texts are read only from the last line each finding was open on, at
// the end: decoding them on every line was Build's largest cost (10% of a
// 24-hour report's CPU time, measured with -cpuprofile).
type findingHead struct {
	Rule     string            `json:"rule"`
	Severity diagnose.Severity `json:"severity"`
	GPU      int               `json:"gpu"`
	PID      int               `json:"pid"`
}

func (s *findingSource) addRecorded(at time.Time, line lineText) {
	if s.headsOK && (len(line.raw) > 0 || line.list != nil) && s.kept != nil && s.fromDelta() {
		s.tracker.observe(at, s.decoded, line)
		return
	}
	raw := line.text()
	s.heads, s.decoded, s.headsOK = s.heads[:0], s.decoded[:0], false
	var texts json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		s.headsOK = true
		clear(s.heads[:cap(s.heads)]) // as in fromDelta
		if err := jsonv1.Unmarshal(t, &s.heads); err != nil {
			s.headsOK = false
			if s.badLines == 0 {
				s.firstBad = fmt.Sprintf("%s: %v", at.UTC().Format(time.RFC3339), err)
			}
			s.badLines++
			s.heads = s.heads[:0]
		}
		texts = t
	}
	for _, h := range s.heads {
		s.decoded = append(s.decoded, diagnose.Finding{Rule: h.Rule, Severity: h.Severity, GPU: h.GPU, PID: h.PID})
	}
	s.tracker.observe(at, s.decoded, lineText{raw: texts})
}

// finish returns the merged findings and where they came from.
func (s *findingSource) finish(where func(int, string) string) ([]Finding, string) {
	if s.recorded {
		return s.tracker.sorted(nil), "recording"
	}
	if s.pending {
		s.tracker.observe(s.lastAt, s.diag.Flush().Findings, lineText{})
		s.pending = false
	}
	return s.tracker.sorted(where), "recomputed"
}

func (s *findingSource) warnings() []string {
	if s.badLines == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d snapshots carried unreadable findings (treated as none); first at %s", s.badLines, s.firstBad)}
}
