package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/fleet"
)

// fleetIdleFor is how long a GPU must sit idle holding memory to be a fleet
// finding (promsource.Options.IdleFor).
const fleetIdleFor = 30 * time.Minute

// runFleet shows the fleet a Prometheus server holds: --once prints it,
// otherwise the fleet view runs with enter opening a node's dashboard.
func runFleet(ctx context.Context, f dashFlags, styles themes.Styles, stdout io.Writer) error {
	if f.demo != "" {
		return usagef("--prometheus and --demo: choose one (run `gpuscope serve --demo` exporters for a demo fleet)")
	}
	src, err := promsource.New(f.prom)
	if err != nil {
		return usageError{err}
	}
	load := func(ctx context.Context) (fleet.View, error) { return LoadFleet(ctx, src, f.interval) }
	if f.once {
		v, err := load(ctx)
		if err != nil {
			return err
		}
		if f.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		}
		return fleet.WriteTextLang(stdout, v, f.lang)
	}
	history := func(ctx context.Context, key fleetsnap.NodeKey, from time.Time) ([]sampler.Snapshot, error) {
		h, err := src.History(ctx, from, time.Now(), f.interval, promsource.NodeMatchers(key)...)
		return h[key], err
	}
	m := fleet.New(fleet.Options{Styles: styles, Interval: f.interval, Load: load, History: history, Lang: f.lang,
		Dashboard: func(badge string) ui.Options {
			o := ui.DefaultOptions(styles, badge, f.interval)
			o.Lang = f.lang // a node opened from the fleet speaks the fleet's language
			return o
		}})
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)).Run(); err != nil {
		return fmt.Errorf("fleet view: %w", err)
	}
	return nil
}

// LoadFleet reads the fleet and diagnoses it: gpuscope exporters bring
// their own findings; nodes with dcgm-exporter alone are diagnosed from
// the last few minutes of their series, one query_range per field for all.
func LoadFleet(ctx context.Context, src *promsource.Source, step time.Duration) (fleet.View, error) {
	now := time.Now()
	fl, err := src.Fleet(ctx, now, promsource.Options{IdleFor: fleetIdleFor})
	if err != nil {
		return fleet.View{}, err
	}
	results := map[fleetsnap.NodeKey]fleetdiag.NodeResult{}
	var others []string
	skipped := 0
	for _, n := range fl.Nodes { // most waste first
		switch {
		case n.Gpuscope:
			results[n.Key] = fleetdiag.Node(n, nil)
		case !n.Up:
		case len(others) < fleetDiagnosed:
			others = append(others, regexp.QuoteMeta(n.Key.Instance))
		default:
			skipped++
		}
	}
	if len(others) > 0 {
		window := diagnose.DefaultWindow + time.Minute
		hist, err := src.History(ctx, now.Add(-window), now, step, "instance=~"+strconv.Quote(strings.Join(others, "|")))
		if err != nil {
			fl.Problems = append(fl.Problems, err.Error())
		}
		for _, n := range fl.Nodes {
			if h, ok := hist[n.Key]; ok {
				results[n.Key] = fleetdiag.Node(n, h)
			}
		}
	}
	v := fleet.NewView(src.URL(), fl, fleetIdleFor, results)
	v.Undiagnosed = skipped
	// Label values (node, job, pod names) are anyone's to set: shown, never obeyed.
	return safe.Clean(v), nil
}

// fleetDiagnosed bounds how many dcgm-exporter-only nodes a refresh
// diagnoses from their series, most wasteful first; the others are
// diagnosed when opened. Rebuilding every node's history costs the view
// memory in proportion: 1,000 nodes took ~220 MB at peak in
// BenchmarkFleet1000NodesOverPrometheus, which a cap of 50 keeps near the
// fleet's own size. Nodes running gpuscope serve bring their findings and
// cost nothing here.
const fleetDiagnosed = 50
