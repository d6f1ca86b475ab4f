package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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

// runFleet shows the fleet a Prometheus server holds (--prometheus) or
// that its nodes answer when scraped directly (--nodes): --once prints it,
// otherwise the fleet view runs with enter opening a node's dashboard.
func runFleet(ctx context.Context, f dashFlags, styles themes.Styles, stdout io.Writer) error {
	if f.demo != "" {
		if f.nodes != "" {
			return usagef("nodes_and_demo", "--nodes and --demo: choose one (run `gpuscope serve --demo` exporters and list them)")
		}
		return usagef("prometheus_and_demo", "--prometheus and --demo: choose one (run `gpuscope serve --demo` exporters for a demo fleet)")
	}
	src, err := fleetSource(f)
	if err != nil {
		return err
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
	m := fleetModel(src, f, styles)
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)).Run(); err != nil {
		return fmt.Errorf("fleet view: %w", err)
	}
	return nil
}

// fleetModel is the fleet view over src: refreshed every --interval,
// enter opening a node's dashboard over its snapshots.
func fleetModel(src FleetReader, f dashFlags, styles themes.Styles) fleet.Model {
	load := func(ctx context.Context) (fleet.View, error) { return LoadFleet(ctx, src, f.interval) }
	history := func(ctx context.Context, key fleetsnap.NodeKey, from time.Time) ([]sampler.Snapshot, error) {
		return src.NodeHistory(ctx, key, from, time.Now(), f.interval)
	}
	badge := "PROM"
	_, direct := src.(*promsource.Direct)
	if direct {
		badge = "SCRAPE"
	}
	return fleet.New(fleet.Options{Styles: styles, Interval: f.interval, Load: load, History: history, Tr: f.tr, Badge: badge, Direct: direct,
		Dashboard: func(badge string) ui.Options {
			o := ui.DefaultOptions(styles, badge, f.interval)
			o.Tr = f.tr // a node opened from the fleet speaks the fleet's language
			return o
		}})
}

// FleetReader is where a fleet comes from: a Prometheus server
// (*promsource.Source) or the nodes scraped directly (*promsource.Direct).
type FleetReader interface {
	Fleet(ctx context.Context, now time.Time, opts promsource.Options) (fleetsnap.Fleet, error)
	NodesHistory(ctx context.Context, keys []fleetsnap.NodeKey, from, to time.Time, step time.Duration) (map[fleetsnap.NodeKey][]sampler.Snapshot, error)
	NodeHistory(ctx context.Context, key fleetsnap.NodeKey, from, to time.Time, step time.Duration) ([]sampler.Snapshot, error)
	URL() string
}

// fleetSource builds the reader the flags name; --nodes with --prometheus
// is a usage error.
func fleetSource(f dashFlags) (FleetReader, error) {
	if f.nodes == "" {
		src, err := promsource.New(f.prom)
		if err != nil {
			return nil, usageError{err}
		}
		return src, nil
	}
	if f.prom.URL != "" {
		return nil, usagef("nodes_and_prometheus", "--nodes and --prometheus: choose one (--nodes scrapes the nodes itself, without a server)")
	}
	if f.scrapeTO <= 0 {
		return nil, usagef("scrape_timeout", "--scrape-timeout %s: want a positive duration such as 5s", f.scrapeTO)
	}
	targets, err := nodeTargets(f.nodes)
	if err != nil {
		return nil, err
	}
	return promsource.NewDirect(targets, f.scrapeTO, f.prom.JobLabel), nil
}

// nodeTargets reads --nodes: a comma list, or @FILE with one a line.
func nodeTargets(spec string) ([]promsource.Target, error) {
	var (
		targets []promsource.Target
		err     error
	)
	if file, ok := strings.CutPrefix(spec, "@"); ok {
		data, rerr := os.ReadFile(file)
		if rerr != nil {
			return nil, usagef("nodes_file", "--nodes @%s: %v", file, rerr)
		}
		targets, err = promsource.ParseTargetFile(file, data)
	} else {
		targets, err = promsource.ParseTargets(spec)
	}
	var te *promsource.TargetError
	switch {
	case errors.As(err, &te) && te.Dup && te.File != "":
		return nil, usagef("nodes_dup_line", "--nodes: %s line %d: %q is listed twice", te.File, te.Line, te.Target)
	case errors.As(err, &te) && te.Dup:
		return nil, usagef("nodes_dup_item", "--nodes: item %d: %q is listed twice", te.Line, te.Target)
	case errors.As(err, &te) && te.File != "":
		return nil, usagef("nodes_bad_line", "--nodes: %s line %d: %q is not a target: want host:port or http://host:port/metrics", te.File, te.Line, te.Target)
	case errors.As(err, &te):
		return nil, usagef("nodes_bad_item", "--nodes: item %d: %q is not a target: want host:port or http://host:port/metrics", te.Line, te.Target)
	case err != nil:
		return nil, usageError{err}
	case len(targets) == 0:
		return nil, usagef("nodes_none", "--nodes %s names no target: list host:port of each node's gpuscope serve or dcgm-exporter", spec)
	}
	return targets, nil
}

// LoadFleet reads the fleet and diagnoses it by fleetdiag's policy:
// gpuscope exporters bring their own findings; nodes with dcgm-exporter
// alone are diagnosed from the last few minutes of their series, one
// query_range per field for all (from the kept scrapes under --nodes).
func LoadFleet(ctx context.Context, src FleetReader, step time.Duration) (fleet.View, error) {
	now := time.Now()
	pol := fleetdiag.DefaultPolicy()
	fl, err := src.Fleet(ctx, now, promsource.Options{IdleFor: pol.IdleFor})
	if err != nil {
		return fleet.View{}, err
	}
	plan := pol.Plan(fl)
	var hist map[fleetsnap.NodeKey][]sampler.Snapshot
	if len(plan.FromSeries) > 0 {
		keys := make([]fleetsnap.NodeKey, len(plan.FromSeries))
		for i, n := range plan.FromSeries {
			keys[i] = n.Key
		}
		hist, err = src.NodesHistory(ctx, keys, now.Add(-pol.Window), now, step)
		if err != nil {
			fl.Problems = append(fl.Problems, err.Error())
		}
	}
	v := fleet.NewView(src.URL(), fl, pol.IdleFor, pol.Diagnose(fl, hist))
	v.Undiagnosed = plan.Skipped
	// Label values (node, job, pod names) are anyone's to set: shown, never obeyed.
	return safe.Clean(v), nil
}
