// Command gpuscope is a terminal dashboard for NVIDIA GPU nodes that also
// says why a GPU is idle and what to change. main wires sources → sampler →
// ui (or a one-shot print) and owns the process: flags, exit codes, signals.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/doctor"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/sim"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/oneshot"
	"github.com/gpuscope/gpuscope/ui/replay"
	"github.com/gpuscope/gpuscope/ui/report"
)

// Set by the linker (-X main.version=...) in release builds.
var version = "dev"

// usageError marks errors that are the user's to fix (bad flag, bad value):
// they print one line and exit 2, as the CLI contract requires.
type usageError struct{ error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ue usageError
	var ec exitCode
	switch {
	case errors.As(err, &ec):
		return int(ec)
	case errors.As(err, &ue) || isFlagError(err):
		fmt.Fprintf(stderr, "gpuscope: %v (see gpuscope --help)\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "gpuscope: %v\n", err)
		return 1
	}
}

// exitCode lets a command choose its exit status after printing its own output.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// isFlagError recognises cobra/pflag parse failures, which carry no type.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown flag", "unknown shorthand", "invalid argument", "flag needs an argument", "unknown command", "accepts ", "requires "} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// dashFlags are the flags of the dashboard (root command).
type dashFlags struct {
	demo         string
	fallbackDemo bool
	seed         int64
	interval     time.Duration
	theme        string
	noColor      bool
	once         bool
	json         bool
	cpuprofile   string
	readonly     bool
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var f dashFlags
	cmd := &cobra.Command{
		Use:   "gpuscope",
		Short: "A terminal dashboard for NVIDIA GPU nodes that says why a GPU is idle",
		Long: `gpuscope shows every GPU (utilisation, memory, power, clocks, links), the
processes on them and the host around them, and a live "why idle" pane that
names the bottleneck with its evidence and the first fix to try.

Without an NVIDIA driver it explains why no GPU was found; --demo runs a
simulated 8x H200 node with the same panes.`,
		Example: `  gpuscope                       live dashboard of this node
  gpuscope --demo                simulated node, scenario "mixed"
  gpuscope --demo=input_starved  simulated node with one failure mode
  gpuscope --demo=list           list the scenarios
  gpuscope --once                one snapshot as text (like gpustat)
  gpuscope --once --json         one snapshot as JSON (docs/snapshot-json.md)
  gpuscope explain input_starved the playbook page of a rule`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			return runDashboard(f, stdout, stderr)
		},
	}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	fl := cmd.Flags()
	fl.StringVar(&f.demo, "demo", "", "run a simulated node; SCENARIO defaults to mixed, 'list' lists them")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.BoolVar(&f.fallbackDemo, "fallback-demo", false, "use the live node when NVML loads, else the demo (what `make run` does)")
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node (same seed, same run)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	fl.BoolVar(&f.once, "once", false, "print one snapshot to stdout and exit")
	fl.BoolVar(&f.json, "json", false, "with --once: print the snapshot as JSON")
	fl.BoolVar(&f.readonly, "readonly", false, "no k/K: the dashboard never signals a process")
	fl.StringVar(&f.cpuprofile, "cpuprofile", "", "write a Go CPU profile to this file (for docs/benchmarks.md)")
	_ = fl.MarkHidden("cpuprofile")

	cmd.AddCommand(newVersionCmd(stdout), newExplainCmd(stdout), newDoctorCmd(stdout), newRecordCmd(stderr), newReportCmd(stdout), newCompareCmd(stdout),
		newReplayCmd(stderr))
	return cmd
}

// demoFlag keeps the --demo value only when the flag was given.
func demoFlag(fl *pflag.FlagSet, v string) string {
	if !fl.Changed("demo") {
		return ""
	}
	return v
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdout, "gpuscope %s (snapshot format %d)\n", version, sampler.FormatVersion)
			return nil
		},
	}
}

func newExplainCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [RULE]",
		Short: "Print the playbook page of a diagnosis rule, or list the rules",
		Example: `  gpuscope explain                 list the rules
  gpuscope explain input_starved   what it means, how it is detected, how to confirm and fix it`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				for _, id := range docs.Rules() {
					fmt.Fprintf(stdout, "%-24s %s\n", id, docs.Summary(id))
				}
				return nil
			}
			page, ok := docs.Playbook(args[0])
			if !ok {
				return usagef("unknown rule %q; `gpuscope explain` lists the %d rules", args[0], len(docs.Rules()))
			}
			fmt.Fprint(stdout, page)
			return nil
		},
	}
}

// prerollDemo is how much simulated history the demo has on its first frame,
// so sparklines and the diagnosis (whose windows are up to 120 s) have data
// at once instead of after two minutes.
const prerollDemo = 120 * time.Second

func runDashboard(f dashFlags, stdout, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.json && !f.once {
		return usagef("--json needs --once")
	}
	if f.demo == "list" {
		for _, sc := range sim.Scenarios() {
			fmt.Fprintf(stdout, "%-24s %s\n", sc.ID, sc.Summary)
		}
		return nil
	}
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	src, err := openSource(f.demo, f.fallbackDemo, f.seed, time.Now().Add(-prerollDemo), stderr)
	if err != nil {
		return err
	}
	if f.cpuprofile != "" {
		prof, err := os.Create(f.cpuprofile)
		if err != nil {
			return err
		}
		defer prof.Close()
		if err := pprof.StartCPUProfile(prof); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	return dashboard(src, f, styles, stdout)
}

func checkInterval(d time.Duration) error {
	if d < sampler.MinInterval || d > sampler.MaxInterval {
		return usagef("--interval %s is out of range: use 100ms to 60s", d)
	}
	return nil
}

// buildStyles builds the chosen theme; --no-color and NO_COLOR turn colour off.
func buildStyles(theme string, noColor bool) (themes.Styles, error) {
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

// openSource builds the live node, or the demo for a scenario. With fallback
// and no driver, it says why on stderr and starts the demo instead.
func openSource(demo string, fallback bool, seed int64, start time.Time, stderr io.Writer) (source, error) {
	if demo == "" {
		live, ok := node.Live()
		if ok || !fallback {
			return source{Sampler: live, badge: "LIVE"}, nil
		}
		fmt.Fprintf(stderr, "gpuscope: no NVIDIA GPU here (%s: %s); starting the simulated node instead (--demo)\n",
			live.GPUError.Tried, live.GPUError.Err)
		demo = "mixed"
	}
	d, err := node.NewDemo(demo, seed, start)
	if err != nil {
		return source{}, usageError{err}
	}
	return source{Sampler: d.Sampler(demo), badge: "DEMO " + demo, simulated: true, start: start}, nil
}

// onceGap separates the two ticks of --once: GPM metrics and CPU percentages
// are rates between two samples, and GPM needs more than 100 ms between them
// (research/diagnosis-anchors.md §E).
const onceGap = 250 * time.Millisecond

// dashboard runs the chosen sampler as a one-shot print or the TUI.
func dashboard(s source, f dashFlags, styles themes.Styles, stdout io.Writer) error {
	s.SetInterval(f.interval)
	now := time.Now()
	var history []sampler.Snapshot
	if s.simulated {
		history = node.Preroll(s.Sampler, s.start, now, f.interval)
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
			err = oneshot.Write(stdout, snap)
		}
		if err == nil && snap.Node.GPUError != nil {
			return exitCode(1) // printed the explanation; scripts see a broken node
		}
		return err
	}
	return runTUI(s.Sampler, history, s.badge, f, styles)
}

func newDoctorCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check why a GPU may be invisible or slow to reach (driver, devices, container, WSL, env)",
		Long: `doctor checks, in the order a person would look: the NVML library and driver,
the /dev/nvidia* device nodes, whether this is a container and whether GPUs were
passed in, WSL2's /dev/dxg, CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES (what
they hide or renumber), persistence mode and MIG mode. Each check is ok, warn or
fail, with what was seen and the fix. Exit status 1 when any check fails.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			env := doctor.System()
			if env.InitErr == nil {
				defer env.NVML.Shutdown()
			}
			checks := doctor.Run(env)
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(map[string]any{"checks": checks, "failed": doctor.Failed(checks)}); err != nil {
					return err
				}
			} else {
				doctor.WriteText(stdout, checks)
			}
			if doctor.Failed(checks) {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	return cmd
}

// frameRate caps repaints. Bubble Tea v1 flushes the screen on a ticker
// whatever the data rate, and each wake-up costs CPU (DESIGN.md measured
// 0.95 s per minute at the default 60 fps, 0.28 s at 10, 0.18 s at 2). Panes
// re-render only on new data, a key or a resize, so most frames compare an
// unchanged string. The first frame also waits for the first tick. Measured
// here (docs/benchmarks.md): 10 fps 0.41 s CPU a minute and a 165 ms first
// frame; 20 fps 0.49 s and 105 ms; 15 fps 0.40 s and 120 ms, with a key's
// echo within 67 ms, which reads as instant.
const frameRate = 15

// runTUI starts the sampler goroutine and the dashboard until the user quits.
// Snapshots pass through a recorder on their way to the screen, so `r` can
// record what is shown.
func runTUI(s *sampler.Sampler, history []sampler.Snapshot, badge string, f dashFlags, styles themes.Styles) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	raw, snaps := make(chan sampler.Snapshot, 1), make(chan sampler.Snapshot, 1)
	rec := newRecordToggle(s)
	defer rec.Close()
	opts := ui.DefaultOptions(styles, badge, f.interval)
	opts.Snapshots, opts.Diagnoser, opts.SetInterval = snaps, diagnose.NewEngine(diagnose.Options{}), s.SetInterval
	opts.Record = func() (string, bool, error) { return rec.Flip(time.Now()) }
	// Live only: the demo's and a replay's PIDs are not this machine's
	// processes, and signalling them could hit an unrelated one.
	opts.ReadOnly = f.readonly
	if badge == "LIVE" {
		opts.Kill = syscall.Kill
	}
	m := ui.New(opts)
	for _, snap := range history {
		_ = rec.Write(snap) // remembered for a recording's header
		m = m.Push(snap)
	}
	// The sampler's clock continues from the pre-rolled history (the demo) or
	// is the wall clock (live).
	go s.Run(ctx, raw, nil)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case snap := <-raw:
				if err := rec.Write(snap); err != nil {
					snap.Problems = append(snap.Problems, "recording: "+err.Error())
				}
				sampler.Offer(snaps, snap)
			}
		}
	}()
	// Bubble Tea quits on SIGTERM by itself (terminal restored); this only
	// notes that it happened, so the exit status can say so. It must not also
	// ask the program to quit: Bubble Tea v1.3's own handler would then block
	// for ever sending its QuitMsg, and shutdown waits for it.
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	defer signal.Stop(term)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion())
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	select {
	case <-term: // delivered with Bubble Tea's copy, before Run could return
		return exitCode(128 + int(syscall.SIGTERM)) // a supervisor can tell a kill from a quit
	default:
		return nil
	}
}

// newRecordToggle records into the current directory, with the findings of
// a diagnosis that starts afresh with each recording (as `gpuscope record`).
func newRecordToggle(s *sampler.Sampler) *record.Toggle {
	var tracker *diagnose.Tracker
	return record.NewToggle(".", s.Interval, func(fresh bool, snap sampler.Snapshot) json.RawMessage {
		if fresh {
			tracker = diagnose.NewTracker(diagnose.Options{})
		}
		raw, _ := json.Marshal(tracker.Push(snap)) // findings always encode
		return raw
	})
}

// recordFlags are the flags of `gpuscope record`.
type recordFlags struct {
	out      string
	duration time.Duration
	interval time.Duration
	demo     string
	seed     int64
	realtime bool
}

func newRecordCmd(stderr io.Writer) *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record -o FILE",
		Short: "Record snapshots and findings to a JSON Lines file (.gz compresses)",
		Long: `record writes one snapshot per line, with the findings the diagnosis showed at
that moment, after a header line ({"gpuscope_recording": 1, ...}). Each line is
written whole, so a recording killed at any point (Ctrl-C, SIGTERM, even
SIGKILL) stays readable up to its last line. With --demo the simulated clock
runs as fast as it can (ten simulated minutes take about a second) unless
--realtime.`,
		Example: `  gpuscope record -o run.jsonl --duration 10m        ten minutes of this node
  gpuscope record -o base.jsonl.gz --interval 500ms    until Ctrl-C, compressed
  gpuscope record -o starved.jsonl --demo=input_starved --duration 3m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			return runRecord(f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "output", "o", "", "file to write (required); a .gz name compresses")
	fl.DurationVar(&f.duration, "duration", 0, "stop after this long (default: until Ctrl-C; 10m for --demo)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.demo, "demo", "", "record a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node")
	fl.BoolVar(&f.realtime, "realtime", false, "with --demo: sample on the wall clock instead of as fast as possible")
	return cmd
}

// demoRecordDefault bounds a demo recording given no --duration.
const demoRecordDefault = 10 * time.Minute

func runRecord(f recordFlags, stderr io.Writer) error {
	if f.out == "" {
		return usagef("record needs -o FILE")
	}
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.duration < 0 {
		return usagef("--duration %s is negative", f.duration)
	}
	if f.demo == "list" {
		return usagef("--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	start := time.Now()
	src, err := openSource(f.demo, false, f.seed, start, stderr)
	if err != nil {
		return err
	}
	if e := src.GPUError; e != nil {
		// A recording without GPUs is an empty baseline; say why instead.
		return fmt.Errorf("no GPU to record: %s: %s (try gpuscope doctor, or --demo)", e.Tried, e.Err)
	}
	src.SetInterval(f.interval)
	fast := src.simulated && !f.realtime
	if fast && f.duration == 0 {
		f.duration = demoRecordDefault
	}
	rec := recorder{tracker: diagnose.NewTracker(diagnose.Options{})}
	first := src.Tick(start)
	if rec.w, err = record.Create(f.out, record.HeaderFor(first, f.interval)); err != nil {
		return err
	}
	err = rec.write(first)
	if err == nil && fast {
		for t := start.Add(f.interval); t.Before(start.Add(f.duration)) && err == nil; t = t.Add(f.interval) {
			err = rec.write(src.Tick(t))
		}
	} else if err == nil {
		err = rec.live(src.Sampler, f.duration, stderr)
	}
	if cerr := rec.w.Close(); err == nil {
		err = cerr
	}
	fmt.Fprintf(stderr, "gpuscope: recorded %d snapshots to %s\n", rec.n, f.out)
	return err
}

// recorder writes snapshots with the findings of the diagnosis at that moment.
type recorder struct {
	w       *record.Writer
	tracker *diagnose.Tracker
	n       int
}

func (r *recorder) write(s sampler.Snapshot) error {
	raw, err := json.Marshal(r.tracker.Push(s))
	if err != nil {
		return fmt.Errorf("record: encode findings: %w", err)
	}
	if err := r.w.Write(record.Entry{Snapshot: s, Findings: raw}); err != nil {
		return err
	}
	r.n++
	return nil
}

// live samples on the wall clock until the duration ends or a signal arrives.
func (r *recorder) live(s *sampler.Sampler, dur time.Duration, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dur)
		defer cancel()
	}
	fmt.Fprintln(stderr, "gpuscope: recording; Ctrl-C stops")
	tick := time.NewTicker(s.Interval())
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tick.C:
			if err := r.write(s.Tick(now)); err != nil {
				return err
			}
		}
	}
}

// reportFormats are the --format values of report (compare has no html).
var reportFormats = []string{"text", "markdown", "json", "html"}

func newReportCmd(stdout io.Writer) *cobra.Command {
	var format, from, to string
	cmd := &cobra.Command{
		Use:   "report FILE... (- for standard input)",
		Short: "Summarise a recording or an nvidia-smi / dcgmi log: per-GPU figures and findings",
		Long: `report reads a gpuscope recording (.jsonl or .jsonl.gz) or a log another tool
wrote — nvidia-smi --query-gpu CSV, nvidia-smi dmon / pmon, dcgmi dmon, or
nvidia-smi -q -x XML — or whatever GPU output was pasted: the nvidia-smi table,
-q text, topo -m, kernel Xid lines, nvidia-bug-report.log, several of them with
prompts and prose around (one line per section says what was read). Several
files are read as one node; "-" is standard input. Detected from the content,
it prints the environment, per GPU the distribution of GPU-Util / SM activity / tensor activity, memory
peak, power, temperature and time throttled, and the findings with evidence
and time ranges. The markdown form is a benchmark.md to keep in the project
(seed 000 §8.1); html is one self-contained page with charts.`,
		Example: `  gpuscope report run.jsonl
  gpuscope report run.jsonl --format markdown > benchmark.md
  gpuscope report run.jsonl.gz --format html > run.html
  gpuscope report smi.csv --from "2026-12-02 14:00:00" --to "2026-12-02 14:10:00"
  nvidia-smi -q | gpuscope report -
  gpuscope report smi.txt topo.txt dmesg.txt     several outputs of one node, one picture`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats, from, to)
			if err != nil {
				return err
			}
			r, err := report.BuildFiles(args, opts)
			if err != nil {
				return err
			}
			return writeReport(stdout, format, r.Text, r.Markdown, r.JSON, r.HTML)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "text, markdown, json or html")
	fl.StringVar(&from, "from", "", `start of the range: RFC 3339 or "2006-01-02 15:04:05" (UTC)`)
	fl.StringVar(&to, "to", "", "end of the range, same forms as --from")
	return cmd
}

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "compare BASE AFTER",
		Short: "Compare two recordings or logs: figures side by side, findings resolved or new, a verdict",
		Long: `compare reports both files and prints, per GPU, the figures of BASE and AFTER
with the change, the findings that went away, appeared or persisted, and a
one-line verdict. Record a baseline, change one thing, record again, compare
(seed 000 §8.1, seed 002 §2.3).`,
		Example: `  gpuscope compare before.jsonl after.jsonl
  gpuscope compare before.jsonl after.jsonl --format markdown >> benchmark.md`,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats[:3], "", "")
			if err != nil {
				return err
			}
			if args[0] == importer.Stdin && args[1] == importer.Stdin {
				return usagef("compare - -: standard input can be read once; give one of the two as a file")
			}
			base, err := report.BuildFile(args[0], opts)
			if err != nil {
				return err
			}
			after, err := report.BuildFile(args[1], opts)
			if err != nil {
				return err
			}
			c := report.Compare(base, after)
			return writeReport(stdout, format, c.Text, c.Markdown, c.JSON, nil)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, markdown or json")
	return cmd
}

// reportOptions validates --format and parses --from/--to.
func reportOptions(format string, allowed []string, from, to string) (report.Options, error) {
	var opts report.Options
	if !slices.Contains(allowed, format) {
		return opts, usagef("--format %q: use %s", format, strings.Join(allowed, ", "))
	}
	var err error
	if opts.From, err = parseWhen("--from", from); err != nil {
		return opts, err
	}
	if opts.To, err = parseWhen("--to", to); err != nil {
		return opts, err
	}
	if !opts.From.IsZero() && !opts.To.IsZero() && !opts.To.After(opts.From) {
		return opts, usagef("--to %s is not after --from %s", to, from)
	}
	return opts, nil
}

func parseWhen(flag, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef(`%s %q: use RFC 3339 (2026-12-02T14:00:00Z) or "2026-12-02 14:00:00" (UTC)`, flag, v)
}

// writeReport renders in the chosen format; html may be nil (compare).
func writeReport(w io.Writer, format string, text, md, js, html func(io.Writer) error) error {
	render := map[string]func(io.Writer) error{"text": text, "markdown": md, "json": js, "html": html}[format]
	return render(w)
}

// replayFlags are the flags of `gpuscope replay`.
type replayFlags struct {
	speed   float64
	theme   string
	noColor bool
}

func newReplayCmd(stderr io.Writer) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Play a recording or an nvidia-smi / dcgmi log in the dashboard, with a timeline",
		Long: `replay shows a gpuscope recording (.jsonl or .jsonl.gz) or a log another tool
wrote — nvidia-smi --query-gpu CSV, nvidia-smi dmon / pmon, dcgmi dmon,
nvidia-smi -q -x XML, or pasted output report reads ("-": standard input),
detected from its content — in the same dashboard, on any
machine, with a timeline at the bottom. The diagnosis is recomputed at each
point as it was live.

Keys: space play/pause · ←/→ one snapshot (pauses) · [ / ] 10 s back/ahead ·
Home/End start/end · < / > (or , / .) slower/faster (0.5× to 60×); the
dashboard's keys work as live (q quits).

The whole file is loaded into memory (~5-20 KB a snapshot): hours are fine;
read a 24 h recording with "gpuscope report" instead.`,
		Example: `  gpuscope replay run.jsonl
  gpuscope replay run.jsonl.gz --speed 10
  gpuscope replay dmon.log                 nvidia-smi dmon -o DT output`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runReplay(args[0], f, stderr) },
	}
	fl := cmd.Flags()
	fl.Float64Var(&f.speed, "speed", 1, "playback speed: 0.5, 1, 2, 5, 10 or 60")
	fl.StringVar(&f.theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	return cmd
}

func runReplay(path string, f replayFlags, stderr io.Writer) error {
	if !slices.Contains(replay.Speeds(), f.speed) {
		var s []string
		for _, v := range replay.Speeds() {
			s = append(s, strconv.FormatFloat(v, 'f', -1, 64))
		}
		return usagef("--speed %v: use %s", f.speed, strings.Join(s, ", "))
	}
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	timeline, warnings, err := replay.Load(path)
	for _, w := range warnings { // before the error too: they say why a log yielded nothing
		fmt.Fprintf(stderr, "gpuscope: %s\n", w)
	}
	if err != nil {
		return err
	}
	m := replay.New(timeline, replay.Options{
		UI:           ui.DefaultOptions(styles, "REPLAY", 0), // 0: the recording's own interval
		NewDiagnoser: func() ui.Diagnoser { return diagnose.NewEvidenceEngine(diagnose.Options{}) },
		Name:         filepath.Base(importer.DisplayName(path)),
		Speed:        f.speed,
	})
	popts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion()}
	if path == importer.Stdin { // the log came through stdin: keys come from the terminal
		popts = append(popts, tea.WithInputTTY())
	}
	if _, err := tea.NewProgram(m, popts...).Run(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}
