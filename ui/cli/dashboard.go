package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/pflag"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/sim"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/oneshot"
)

// prerollDemo is how much simulated history the demo has on its first frame,
// so sparklines and the diagnosis (whose windows are up to 120 s) have data
// at once instead of after two minutes.
const prerollDemo = 120 * time.Second

func runDashboard(ctx context.Context, d Deps, f dashFlags, stdout, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.json && !f.once {
		return usagef("json_needs_once", "--json needs --once")
	}
	if f.demo == "list" {
		for _, sc := range sim.Scenarios() {
			fmt.Fprintf(stdout, "%-24s %s\n", sc.ID, sc.Summary)
		}
		return nil
	}
	if slices.Contains(f.faults, "list") {
		for _, fl := range d.Faults() {
			fmt.Fprintf(stdout, "%-10s %s\n", fl.ID, fl.Summary)
		}
		return nil
	}
	if len(f.faults) > 0 && f.demo == "" {
		return usagef("fault_needs_demo", "--demo-fault needs --demo: faults are shown on the simulated node")
	}
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	if f.prom.URL != "" || f.nodes != "" {
		return runFleet(ctx, f, styles, stdout)
	}
	src, err := openSource(d, f.demo, f.fallbackDemo, f.seed, time.Now().Add(-prerollDemo), f.gpus, stderr, f.faults...)
	if err != nil {
		return err
	}
	defer src.Close() // NVML's Shutdown, once the dashboard has stopped sampling
	if !src.simulated && f.procSocket != "" && d.ProcSocket != nil {
		d.ProcSocket(src.Sampler, f.procSocket)
	}
	return dashboard(ctx, src, f, styles, stdout, stderr)
}

func checkInterval(d time.Duration) error {
	if d < sampler.MinInterval || d > sampler.MaxInterval {
		return usagef("interval_range", "--interval %s is out of range: use 100ms to 60s", d)
	}
	return nil
}

// buildStyles builds the chosen theme; --no-color and NO_COLOR turn colour off.
func buildStyles(theme string, noColor bool) (themes.Styles, error) {
	if theme == "" { // themes.Build reads "" as the default; a flag given empty is a mistake
		return themes.Styles{}, usagef("theme_empty", "--theme is empty: use %s", strings.Join(themes.Names(), ", "))
	}
	styles, err := themes.Build(theme, !noColor && os.Getenv("NO_COLOR") == "")
	if err != nil {
		return styles, usageError{err}
	}
	return styles, nil
}

// source is the sampler the flags chose, and how to label it.
type source struct {
	*sampler.Sampler
	badge     string
	simulated bool      // the demo: its clock is whatever the caller passes
	start     time.Time // the simulated node's time zero
}

// openSource builds the live node, or the demo for a scenario, showing only
// the GPUs gpus selects (--gpus; "" is all). With fallback and no driver,
// it says why on stderr and starts the demo instead.
func openSource(d Deps, demo string, fallback bool, seed int64, start time.Time, gpus string, stderr io.Writer, faults ...string) (source, error) {
	only, err := sampler.ParseGPUSelect(gpus)
	if err != nil {
		return source{}, usageError{err}
	}
	src, err := openNode(d, demo, fallback, seed, start, stderr, faults)
	if err == nil {
		src.Only = only
	}
	return src, err
}

func openNode(d Deps, demo string, fallback bool, seed int64, start time.Time, stderr io.Writer, faults []string) (source, error) {
	if demo == "" {
		live, ok := d.Live()
		if ok || !fallback {
			return source{Sampler: live, badge: "LIVE"}, nil
		}
		fmt.Fprintf(stderr, "gpuscope: no NVIDIA GPU here (%s: %s); starting the simulated node instead (--demo)\n",
			live.GPUError.Tried, live.GPUError.Err)
		demo = "mixed"
	}
	s, err := d.Demo(demo, seed, start, faults)
	if err != nil {
		return source{}, usageError{err}
	}
	return source{Sampler: s, badge: "DEMO " + demo, simulated: true, start: start}, nil
}

// onceGap separates the two ticks of --once: GPM metrics and CPU percentages
// are rates between two samples, and GPM needs more than 100 ms between them
// ([nvml-gpm]: two samples more than 100 ms apart).
const onceGap = 250 * time.Millisecond

// dashboard runs the chosen sampler as a one-shot print or the TUI.
func dashboard(ctx context.Context, s source, f dashFlags, styles themes.Styles, stdout, stderr io.Writer) error {
	s.SetInterval(f.interval)
	now := time.Now()
	var history []sampler.Snapshot
	// The command line, package initialisation and the words are done
	// with: their code's pages go before the pre-roll maps its own
	// (startpages_linux.go).
	releaseStartPages()
	if s.simulated {
		// At most one snapshot a second: the charts and the diagnosis keep
		// no more (ui/history.go, diagnose.Options.Thin), and at 100 ms the
		// 1,200 snapshots cost the start ~0.5 s of CPU and ~40 MB
		// (docs/benchmarks.md, "The dashboard's cost while it watches,
		// 2026-12-07").
		history = sampler.Preroll(s.Sampler, s.start, now, max(f.interval, time.Second))
	}
	if f.once {
		var snap sampler.Snapshot
		if s.simulated {
			snap = s.Tick(now)
		} else {
			s.Tick(now)
			time.Sleep(onceGap)
			snap = s.Tick(time.Now())
		}
		var err error
		if f.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(snap)
		} else {
			err = oneshot.WriteLang(stdout, snap, f.tr)
		}
		if err == nil && snap.Node.GPUError != nil {
			return exitCode(1) // printed the explanation; scripts see a broken node
		}
		return err
	}
	return runTUI(ctx, s.Sampler, history, s.badge, f, styles, stderr)
}

// frameRate caps repaints: ui.Painter writes a frame when the model
// changed (a snapshot, a key, a resize), at most frameRate a second, where
// Bubble Tea v1's renderer woke on a ticker at that rate whatever changed
// (runPainted). A key's echo within 67 ms reads as instant.
const frameRate = 15

// runTUI starts the collector (sampling and the one diagnosis, in one
// goroutine) and the dashboard until the user quits, then waits for the
// collector to stop. The collector hands every frame to the recorder before
// the screen, so `r` records what is shown, findings included.
func runTUI(ctx context.Context, s *sampler.Sampler, history []sampler.Snapshot, badge string, f dashFlags, styles themes.Styles, stderr io.Writer) error {
	notify, alerts, err := f.alert.notifier(f.tr)
	if err != nil {
		return err
	}
	rec := record.NewToggle(".", s.Interval)
	col := pipeline.New(s, pipeline.Options{Sinks: append([]pipeline.Sink{recordSink(rec)}, alerts...)})
	opts := ui.DefaultOptions(styles, badge, f.interval)
	opts.SetInterval = col.SetInterval
	opts.Keys = f.keys
	opts.ProcSort, opts.ProcSortReverse, opts.ProcTree = f.sort, f.sortReverse, f.tree
	opts.Hide, opts.ComputeOnly = f.hide, f.computeOnly
	opts.Tr = f.tr
	opts.Bell = f.bell
	opts.Record = recordKey(rec, f.tr)
	opts.RecordState = rec.State
	// Live only: the demo's and a replay's PIDs are not this machine's
	// processes, and signalling them could hit an unrelated one.
	opts.ReadOnly = f.readonly
	if badge == "LIVE" {
		opts.Kill = syscall.Kill
	}
	m := ui.New(opts)
	// Diagnosed, remembered for a recording's header, and pushed one by one.
	col.Preroll(history, func(f diagnose.Frame) { m = m.Push(f) })
	frames := col.Subscribe()
	startOver() // the pre-roll's garbage and code, before the first frames
	// The sampler's clock continues from the pre-rolled history (the demo) or
	// is the wall clock (live).
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { col.Run(ctx, nil) })
	wg.Go(func() { settleStart(ctx, startSettle, startOver) })
	err = runPainted(m, "dashboard", screen{in: os.Stdin, out: os.Stdout, stderr: stderr, frames: frames})
	cancel()
	wg.Wait() // the collector no longer writes to the recording
	if notify != nil {
		notify.Close(alertClose) // what the last frames queued
	}
	// A recording open at quit is closed here, once the screen is restored,
	// so its name and any close error (a full disk, a gzip trailer not
	// written) are printed where the user sees them.
	status, rerr := rec.Stop()
	if status != "" && rerr == nil {
		prefix := "gpuscope: "
		if f.lang == "zh" {
			prefix = "gpuscope：" // the full-width colon of the other Chinese lines
		}
		fmt.Fprintln(stderr, prefix+recordStatus(rec, status, false, f.tr))
	}
	var ec exitCode
	switch {
	case rerr == nil:
		return err
	case err == nil:
		return rerr // printed by run, exit 1
	case errors.As(err, &ec): // a signal's status stands; the error is still said
		fmt.Fprintf(stderr, "gpuscope: %s\n", safe.Text(rerr.Error()))
		return err
	default:
		return errors.Join(err, rerr)
	}
}

// recordKey is the dashboard's r: it starts or stops rec and says so in
// tr's language.
func recordKey(rec *record.Toggle, tr *i18n.Tr) func() (string, bool, error) {
	return func() (string, bool, error) {
		status, on, err := rec.Flip(time.Now())
		return recordStatus(rec, status, on, tr), on, err
	}
}

// recordStatus is the Toggle's line for a recording started (on) or
// stopped in tr's language; the Toggle's own line is the English.
func recordStatus(rec *record.Toggle, status string, on bool, tr *i18n.Tr) string {
	if status == "" || tr.Lang() == "en" {
		return status
	}
	id := "status.record_stopped"
	if on {
		id = "status.record_started"
	}
	return tr.T(id, map[string]any{"Path": rec.Path(), "Count": rec.Count()})
}

// runProgram runs a full-screen program and turns how it ended into the
// exit status of docs/exit-status.md: a quit key 0; SIGINT 130 and SIGTERM
// 143 (128 + the signal, as a shell reports a process the signal killed),
// so a supervisor can tell a kill from a quit. Bubble Tea restores the
// terminal in every case. The signals are caught here, before Run:
// Bubble Tea v1.3 installs its own handler from a goroutine inside Run,
// so a SIGTERM sent right after the first frame (which the painter may
// write first) could find no handler but a note-taking one, and the
// dashboard ran on. Both are asked of the program as Bubble Tea's handler
// asks them, once; Send gives up when the program has ended.
func runProgram(p *tea.Program, what string) error {
	tea.WithoutSignalHandler()(p)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var termed atomic.Bool
	ended := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			if s == syscall.SIGINT {
				p.Send(tea.InterruptMsg{}) // no tty input: ^C was not a key
				return
			}
			termed.Store(true)
			p.Quit()
		case <-ended:
		}
	}()
	_, err := p.Run()
	close(ended)
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return exitCode(128 + int(syscall.SIGINT))
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	case termed.Load():
		return exitCode(128 + int(syscall.SIGTERM))
	default:
		return nil
	}
}

// gpusFlag is --gpus, shared by the commands that sample a node.
func gpusFlag(fl *pflag.FlagSet, gpus *string) {
	fl.StringVar(gpus, "gpus", "", "show only these GPUs: indices (nvidia-smi's), GPU-/MIG- UUIDs or their prefixes, comma-separated, as CUDA_VISIBLE_DEVICES")
}
