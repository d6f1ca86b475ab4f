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

	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/fleet"
)

// runFleet shows the fleet a Prometheus server holds: --once prints it,
// otherwise the fleet view runs with enter opening a node's dashboard.
func runFleet(ctx context.Context, f dashFlags, styles themes.Styles, stdout io.Writer) error {
	if f.demo != "" {
		return usagef("prometheus_and_demo", "--prometheus and --demo: choose one (run `gpuscope serve --demo` exporters for a demo fleet)")
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
		return fleet.WriteTextLang(stdout, v, f.tr)
	}
	history := func(ctx context.Context, key fleetsnap.NodeKey, from time.Time) ([]sampler.Snapshot, error) {
		h, err := src.History(ctx, from, time.Now(), f.interval, promsource.NodeMatchers(key)...)
		return h[key], err
	}
	m := fleet.New(fleet.Options{Styles: styles, Interval: f.interval, Load: load, History: history, Tr: f.tr,
		Dashboard: func(badge string) ui.Options {
			o := ui.DefaultOptions(styles, badge, f.interval)
			o.Tr = f.tr // a node opened from the fleet speaks the fleet's language
			return o
		}})
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)).Run(); err != nil {
		return fmt.Errorf("fleet view: %w", err)
	}
	return nil
}

// LoadFleet reads the fleet and diagnoses it by fleetdiag's policy:
// gpuscope exporters bring their own findings; nodes with dcgm-exporter
// alone are diagnosed from the last few minutes of their series, one
// query_range per field for all.
func LoadFleet(ctx context.Context, src *promsource.Source, step time.Duration) (fleet.View, error) {
	now := time.Now()
	pol := fleetdiag.DefaultPolicy()
	fl, err := src.Fleet(ctx, now, promsource.Options{IdleFor: pol.IdleFor})
	if err != nil {
		return fleet.View{}, err
	}
	plan := pol.Plan(fl)
	var hist map[fleetsnap.NodeKey][]sampler.Snapshot
	if len(plan.FromSeries) > 0 {
		instances := make([]string, len(plan.FromSeries))
		for i, n := range plan.FromSeries {
			instances[i] = regexp.QuoteMeta(n.Key.Instance)
		}
		hist, err = src.History(ctx, now.Add(-pol.Window), now, step, "instance=~"+strconv.Quote(strings.Join(instances, "|")))
		if err != nil {
			fl.Problems = append(fl.Problems, err.Error())
		}
	}
	v := fleet.NewView(src.URL(), fl, pol.IdleFor, pol.Diagnose(fl, hist))
	v.Undiagnosed = plan.Skipped
	// Label values (node, job, pod names) are anyone's to set: shown, never obeyed.
	return safe.Clean(v), nil
}
