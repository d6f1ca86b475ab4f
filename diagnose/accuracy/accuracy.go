// Package accuracy measures the diagnosis engine against the simulator: every
// scenario over many seeds, through the same path as `gpuscope --demo`
// (sim → fake NVML → NVML reader → sampler → diagnose.Tracker). It produces the
// confusion matrix in docs/diagnosis-accuracy.md and the figures a test holds.
package accuracy

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// Config of a run. The run docs/diagnosis-accuracy.md publishes is 20
// seeds of 3 minutes at 1 s.
type Config struct {
	Scenarios []string
	Seeds     int
	Duration  time.Duration
	Interval  time.Duration
	// NoiseScale multiplies the simulator's per-step jitter (sim.Options);
	// 0 is the simulator's own.
	NoiseScale float64
}

// Result holds, per scenario, how many seeds reported each rule, and the
// worst number of times one finding (rule, GPU) opened within a seed.
type Result struct {
	Config
	Hits map[string]map[string]int // scenario → rule → seeds that reported it
	// Alarms: scenario → seeds with any warning or critical finding.
	Alarms map[string]int
	// MaxOpens: scenario → the most times a single (rule, GPU) opened in a seed.
	MaxOpens map[string]int
}

// Run evaluates every scenario and seed.
func Run(cfg Config) (Result, error) {
	r := Result{Config: cfg, Hits: map[string]map[string]int{}, Alarms: map[string]int{}, MaxOpens: map[string]int{}}
	for _, sc := range cfg.Scenarios {
		r.Hits[sc] = map[string]int{}
		for seed := 1; seed <= cfg.Seeds; seed++ {
			run, err := runOne(sc, int64(seed), cfg)
			if err != nil {
				return r, err
			}
			for rule := range run.rules {
				r.Hits[sc][rule]++
			}
			if run.alarm {
				r.Alarms[sc]++
			}
			r.MaxOpens[sc] = max(r.MaxOpens[sc], run.maxOpens)
		}
	}
	return r, nil
}

type seedRun struct {
	rules    map[string]bool
	alarm    bool
	maxOpens int
}

type findingKey struct {
	rule string
	gpu  int
}

func runOne(scenario string, seed int64, cfg Config) (seedRun, error) {
	dur, interval := cfg.Duration, cfg.Interval
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	demo, err := node.NewDemoWithOptions(scenario, seed, start, sim.Options{NoiseScale: cfg.NoiseScale})
	if err != nil {
		return seedRun{}, err
	}
	s := demo.Sampler(scenario)
	tracker := diagnose.NewTracker(diagnose.Options{})
	out := seedRun{rules: map[string]bool{}}
	opens := map[findingKey]int{}
	open := map[findingKey]bool{}
	for t := start; t.Before(start.Add(dur)); t = t.Add(interval) {
		now := map[findingKey]bool{}
		for _, f := range tracker.Push(s.Tick(t)) {
			k := findingKey{f.Rule, f.GPU}
			now[k] = true
			out.rules[f.Rule] = true
			if f.Severity >= diagnose.Warning {
				out.alarm = true
			}
			if !open[k] {
				opens[k]++
				out.maxOpens = max(out.maxOpens, opens[k])
			}
		}
		open = now
	}
	return out, nil
}

// Matrix renders the confusion matrix: one row per scenario, one column per
// rule that was reported anywhere, each cell the number of seeds reporting it.
func (r Result) Matrix() string {
	var b strings.Builder
	cols := r.reportedRules()
	b.WriteString("| scenario | expected | alarms | max opens |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, sc := range r.Scenarios {
		want := "—"
		if t, ok := TruthOf(sc); ok && len(t.Expect) > 0 {
			var parts []string
			for _, rule := range t.Expect {
				parts = append(parts, fmt.Sprintf("%d/%d", r.Hits[sc][rule], r.Seeds))
			}
			want = strings.Join(parts, " ")
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %d |", sc, want, r.Alarms[sc], r.Seeds, r.MaxOpens[sc])
		for _, c := range cols {
			if n := r.Hits[sc][c]; n > 0 {
				fmt.Fprintf(&b, " %d |", n)
			} else {
				b.WriteString(" · |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// reportedRules lists, in canonical order, the rules seen in any scenario.
func (r Result) reportedRules() []string {
	seen := map[string]bool{}
	for _, m := range r.Hits {
		for rule := range m {
			seen[rule] = true
		}
	}
	var out []string
	for _, ri := range diagnose.Rules {
		if seen[ri.ID] {
			out = append(out, ri.ID)
			delete(seen, ri.ID)
		}
	}
	rest := make([]string, 0, len(seen))
	for id := range seen {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	return append(out, rest...)
}
