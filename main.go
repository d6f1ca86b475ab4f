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
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/diagnose/promexport"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/doctor"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/podresources"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/sim"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/config"
	"github.com/gpuscope/gpuscope/ui/fleet"
	"github.com/gpuscope/gpuscope/ui/markdown"
	"github.com/gpuscope/gpuscope/ui/oneshot"
	"github.com/gpuscope/gpuscope/ui/replay"
	"github.com/gpuscope/gpuscope/ui/report"
)

// Set by the linker (-X main.version=... -X main.commit=...) in `make dist`
// and `make build`.
var (
	version = "dev"
	commit  = "unknown"
)

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
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var ue usageError
	var ec exitCode
	usage, other := 2, 1
	if cmd != nil && cmd.Name() == "check" { // 1 and 2 are its findings
		usage, other = checkErrorStatus, checkErrorStatus
	}
	switch {
	case errors.As(err, &ec):
		return int(ec)
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "gpuscope: %s (see gpuscope --help)\n", safe.Text(err.Error()))
		return usage
	default:
		fmt.Fprintf(stderr, "gpuscope: %s\n", safe.Text(err.Error())) // may quote a file's contents
		return other
	}
}

// exitCode lets a command choose its exit status after printing its own output.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// usageArgs marks what an argument validator rejects (a missing file, an
// unknown command) as the user's to fix; flag errors are marked by the
// root's FlagErrorFunc, which subcommands inherit. Cobra's errors carry no
// type, so they are marked where they arise rather than recognised by text.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
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
	faults       []string            // --demo-fault
	keys         map[string][]string // config.toml's [keys]
	prom         promsource.Config
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
		Args:          usageArgs(cobra.NoArgs),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			applyConfig(cmd.Flags(), &f, os.Getenv, stderr)
			return runDashboard(f, stdout, stderr)
		},
	}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	fl := cmd.Flags()
	fl.StringVar(&f.demo, "demo", "", "run a simulated node; SCENARIO defaults to mixed, 'list' lists them")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.BoolVar(&f.fallbackDemo, "fallback-demo", false, "use the live node when NVML loads, else the demo (what make run does)")
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node (same seed, same run)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	fl.BoolVar(&f.once, "once", false, "print one snapshot to stdout and exit")
	fl.BoolVar(&f.json, "json", false, "with --once: print the snapshot as JSON")
	fl.BoolVar(&f.readonly, "readonly", false, "no k/K: the dashboard never signals a process")
	fl.StringSliceVar(&f.faults, "demo-fault", nil, "with --demo: show a failure (lost, timeout, noperm, hostile, all; 'list' lists them)")
	fl.StringVar(&f.prom.URL, "prometheus", "", "show the fleet a Prometheus-compatible server (Prometheus, Thanos, VictoriaMetrics, Mimir) holds")
	fl.StringVar(&f.prom.Selector, "selector", "", `with --prometheus: label matchers every query gets, e.g. '{cluster="a"}'`)
	fl.StringVar(&f.prom.BearerTokenFile, "bearer-token-file", "", "with --prometheus: send the token in this file")
	fl.StringVar(&f.prom.BasicAuthUser, "basic-auth-user", "", "with --prometheus: basic auth user")
	fl.StringVar(&f.prom.BasicAuthPasswordFile, "basic-auth-password-file", "", "with --prometheus: file holding the basic auth password")
	fl.StringVar(&f.prom.CAFile, "tls-ca-file", "", "with --prometheus: CA certificate to verify the server")
	fl.StringVar(&f.prom.CertFile, "tls-cert-file", "", "with --prometheus: client certificate")
	fl.StringVar(&f.prom.KeyFile, "tls-key-file", "", "with --prometheus: client key")
	fl.BoolVar(&f.prom.InsecureSkipVerify, "tls-insecure-skip-verify", false, "with --prometheus: do not verify the server's certificate")
	fl.StringVar(&f.prom.JobLabel, "job-label", "", "with --prometheus: the label naming a GPU's distributed job (default: its pod name without -worker-N)")
	fl.StringVar(&f.cpuprofile, "cpuprofile", "", "write a Go CPU profile to this file (for docs/benchmarks.md)")
	_ = fl.MarkHidden("cpuprofile")

	cmd.AddCommand(newVersionCmd(stdout), newCheckCmd(stdout, stderr), newExplainCmd(stdout), newDoctorCmd(stdout), newRecordCmd(stderr), newReportCmd(stdout), newCompareCmd(stdout), newConfigCmd(stdout, os.Getenv),
		newReplayCmd(stderr), newServeCmd(stderr))
	addCompletions(cmd)
	return cmd
}

// addCompletions gives shell completion (cobra's `gpuscope completion SHELL`)
// the values of every --demo, --theme and --format flag in the command tree,
// and explain its rule ids; file arguments keep the shell's file completion.
func addCompletions(root *cobra.Command) {
	fixed := func(vals ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp)
	}
	var scenarios []string
	for _, s := range sim.Scenarios() {
		scenarios = append(scenarios, s.ID+"\t"+s.Summary)
	}
	scenarios = append(scenarios, "list\tlist the scenarios")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("demo") != nil {
			_ = c.RegisterFlagCompletionFunc("demo", fixed(scenarios...))
		}
		if c.Flags().Lookup("theme") != nil {
			_ = c.RegisterFlagCompletionFunc("theme", fixed("dark", "light", "mono"))
		}
		if c.Flags().Lookup("format") != nil {
			formats := reportFormats
			if c.Name() == "compare" {
				formats = reportFormats[:3] // compare has no html
			}
			_ = c.RegisterFlagCompletionFunc("format", fixed(formats...))
		}
		if c.Name() == "explain" {
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				var out []cobra.Completion
				for _, id := range docs.Rules() {
					out = append(out, id+"\t"+docs.Summary(id))
				}
				return out, cobra.ShellCompDirectiveNoFileComp
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// demoFlag keeps the --demo value only when the flag was given; --demo=
// (empty) is the default scenario, as --demo is, never the live node.
func demoFlag(fl *pflag.FlagSet, v string) string {
	if !fl.Changed("demo") {
		return ""
	}
	if v == "" {
		return fl.Lookup("demo").NoOptDefVal
	}
	return v
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdout, "gpuscope %s (commit %s, %s/%s, snapshot format %d)\n",
				version, commit, runtime.GOOS, runtime.GOARCH, sampler.FormatVersion)
			return nil
		},
	}
}

func newExplainCmd(stdout io.Writer) *cobra.Command {
	var lang, theme string
	var raw, noColor bool
	var width int
	cmd := &cobra.Command{
		Use:   "explain [RULE]",
		Short: "Print the playbook page of a diagnosis rule, or list the rules",
		Long: `explain prints a rule's playbook page: what it means, how gpuscope detects it,
how to confirm it with other tools and the fixes in priority order. On a
terminal the page is rendered (headings, lists, code, wrapped to the width);
piped, or with --raw, it is the Markdown source. --lang zh (or a zh_* locale in
LANGUAGE, LC_ALL, LC_MESSAGES or LANG) gives the Chinese page.`,
		Example: `  gpuscope explain                 list the rules
  gpuscope explain input_starved   what it means, how it is detected, how to confirm and fix it
  gpuscope explain input_starved --lang zh
  gpuscope explain input_starved --raw > input_starved.md`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			lang, err := chooseLang(lang, os.Getenv)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				for _, id := range docs.Rules() {
					fmt.Fprintf(stdout, "%-24s %s\n", id, docs.SummaryLang(id, lang))
				}
				return nil
			}
			page, ok := docs.PlaybookLang(args[0], lang)
			if !ok {
				return usagef("unknown rule %q; `gpuscope explain` lists the %d rules", args[0], len(docs.Rules()))
			}
			tty, cols := terminalWidth(stdout)
			if raw || (!tty && width == 0) {
				fmt.Fprint(stdout, page)
				return nil
			}
			if width == 0 {
				width = min(cols, 100)
			}
			style := markdown.ForTheme(theme, noColor || os.Getenv("NO_COLOR") != "" || !tty)
			out, err := markdown.Render(page, width, style)
			if err != nil {
				return err
			}
			fmt.Fprint(stdout, out)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&lang, "lang", "", "page language: en or zh (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG)")
	fl.BoolVar(&raw, "raw", false, "print the Markdown source instead of rendering it")
	fl.IntVar(&width, "width", 0, "render to this many columns (default: the terminal's, at most 100)")
	fl.StringVar(&theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	_ = cmd.RegisterFlagCompletionFunc("lang", cobra.FixedCompletions([]string{"en", "zh"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// chooseLang picks the language: the flag when given (en or zh), else the
// first locale variable set, in gettext's order, with zh_* meaning Chinese.
func chooseLang(flag string, getenv func(string) string) (string, error) {
	switch flag {
	case "en", "zh":
		return flag, nil
	case "":
	default:
		return "", usagef("--lang %q: use en or zh", flag)
	}
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if val := getenv(v); val != "" {
			first, _, _ := strings.Cut(val, ":") // LANGUAGE is a list
			if docs.IsChinese(first) {
				return "zh", nil
			}
			return "en", nil
		}
	}
	return "en", nil
}

// terminalWidth says whether w is a terminal and, if so, its width.
func terminalWidth(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 {
		return true, 80
	}
	return true, cols
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
	if slices.Contains(f.faults, "list") {
		for _, fl := range node.Faults() {
			fmt.Fprintf(stdout, "%-10s %s\n", fl.ID, fl.Summary)
		}
		return nil
	}
	if len(f.faults) > 0 && f.demo == "" {
		return usagef("--demo-fault needs --demo: faults are shown on the simulated node")
	}
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	if f.prom.URL != "" {
		return runFleet(f, styles, stdout)
	}
	src, err := openSource(f.demo, f.fallbackDemo, f.seed, time.Now().Add(-prerollDemo), stderr, f.faults...)
	if err != nil {
		return err
	}
	defer src.Close() // NVML's Shutdown, once the dashboard has stopped sampling
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
	return dashboard(src, f, styles, stdout, stderr)
}

func checkInterval(d time.Duration) error {
	if d < sampler.MinInterval || d > sampler.MaxInterval {
		return usagef("--interval %s is out of range: use 100ms to 60s", d)
	}
	return nil
}

// buildStyles builds the chosen theme; --no-color and NO_COLOR turn colour off.
func buildStyles(theme string, noColor bool) (themes.Styles, error) {
	if theme == "" { // themes.Build reads "" as the default; a flag given empty is a mistake
		return themes.Styles{}, usagef("--theme is empty: use %s", strings.Join(themes.Names(), ", "))
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

// openSource builds the live node, or the demo for a scenario. With fallback
// and no driver, it says why on stderr and starts the demo instead.
func openSource(demo string, fallback bool, seed int64, start time.Time, stderr io.Writer, faults ...string) (source, error) {
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
	if err := d.Inject(faults); err != nil {
		return source{}, usageError{err}
	}
	return source{Sampler: d.Sampler(demo), badge: "DEMO " + demo, simulated: true, start: start}, nil
}

// onceGap separates the two ticks of --once: GPM metrics and CPU percentages
// are rates between two samples, and GPM needs more than 100 ms between them
// (research/diagnosis-anchors.md §E).
const onceGap = 250 * time.Millisecond

// dashboard runs the chosen sampler as a one-shot print or the TUI.
func dashboard(s source, f dashFlags, styles themes.Styles, stdout, stderr io.Writer) error {
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
	return runTUI(s.Sampler, history, s.badge, f, styles, stderr)
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
		Args: usageArgs(cobra.NoArgs),
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
				var b strings.Builder // environment variables and paths: escaped
				doctor.WriteText(&b, checks)
				fmt.Fprint(stdout, safe.Text(b.String()))
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

// runTUI starts the collector (sampling and the one diagnosis, in one
// goroutine) and the dashboard until the user quits, then waits for the
// collector to stop. The collector hands every frame to the recorder before
// the screen, so `r` records what is shown, findings included.
func runTUI(s *sampler.Sampler, history []sampler.Snapshot, badge string, f dashFlags, styles themes.Styles, stderr io.Writer) error {
	rec := record.NewToggle(".", s.Interval)
	col := pipeline.New(s, pipeline.Options{Record: func(fr pipeline.Frame) error {
		var findings []diagnose.Finding
		if fr.Diagnosis != nil {
			findings = fr.Diagnosis.Findings
		}
		return rec.Write(fr.Snapshot, findings)
	}})
	opts := ui.DefaultOptions(styles, badge, f.interval)
	opts.SetInterval = col.SetInterval
	opts.Keys = f.keys
	opts.Record = func() (string, bool, error) { return rec.Flip(time.Now()) }
	opts.RecordState = rec.State
	// Live only: the demo's and a replay's PIDs are not this machine's
	// processes, and signalling them could hit an unrelated one.
	opts.ReadOnly = f.readonly
	if badge == "LIVE" {
		opts.Kill = syscall.Kill
	}
	m := ui.New(opts)
	for _, snap := range history { // diagnosed, and remembered for a recording's header
		m = m.Push(col.Push(snap))
	}
	m = m.WithFrames(col.Subscribe())
	// The sampler's clock continues from the pre-rolled history (the demo) or
	// is the wall clock (live).
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { col.Run(ctx, nil) })
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion())
	err := runProgram(p, "dashboard")
	cancel()
	wg.Wait() // the collector no longer writes to the recording
	// A recording open at quit is closed here, once the screen is restored,
	// so its name and any close error (a full disk, a gzip trailer not
	// written) are printed where the user sees them.
	status, rerr := rec.Stop()
	if status != "" && rerr == nil {
		fmt.Fprintf(stderr, "gpuscope: %s\n", status)
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

// runProgram runs a full-screen program and turns how it ended into the
// exit status of docs/exit-status.md: a quit key 0; SIGINT 130 and SIGTERM
// 143 (128 + the signal, as a shell reports a process the signal killed),
// so a supervisor can tell a kill from a quit. Bubble Tea restores the
// terminal in every case. Bubble Tea handles both signals itself: on
// SIGTERM it quits without an error, so this only notes that SIGTERM came;
// it must not also ask the program to quit (v1.3 would then block for ever
// sending its QuitMsg, and shutdown waits for it).
func runProgram(p *tea.Program, what string) error {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	defer signal.Stop(term)
	_, err := p.Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted): // SIGINT when ^C is not a key (no tty input, kill -INT)
		return exitCode(128 + int(syscall.SIGINT))
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	}
	select {
	case <-term: // delivered with Bubble Tea's copy, before Run could return
		return exitCode(128 + int(syscall.SIGTERM))
	default:
		return nil
	}
}

// recordFlags are the flags of `gpuscope record`.
type recordFlags struct {
	out      string
	duration time.Duration
	interval time.Duration
	demo     string
	seed     int64
	realtime bool
	force    bool
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
		Args: usageArgs(cobra.NoArgs),
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
	fl.BoolVar(&f.force, "force", false, "overwrite FILE if it exists (never through a symbolic link)")
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
	defer src.Close()
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
	create := record.Create
	if f.force {
		create = record.Overwrite
	}
	if rec.w, err = create(f.out, record.HeaderFor(first, f.interval)); errors.Is(err, fs.ErrExist) {
		return usagef("%s exists; --force overwrites it", f.out)
	} else if err != nil {
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
	if err == nil && rec.signal != 0 { // stopped by a signal: the file is complete
		return exitCode(128 + int(rec.signal))
	}
	return err
}

// recorder writes snapshots with the findings of the diagnosis at that moment.
type recorder struct {
	w       *record.Writer
	tracker *diagnose.Tracker
	n       int
	signal  syscall.Signal // the signal that stopped it, 0 if none
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

// live samples on the wall clock until the duration ends or SIGINT or
// SIGTERM arrives (noted in r.signal for the exit status).
func (r *recorder) live(s *sampler.Sampler, dur time.Duration, stderr io.Writer) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var until <-chan time.Time
	if dur > 0 {
		t := time.NewTimer(dur)
		defer t.Stop()
		until = t.C
	}
	fmt.Fprintln(stderr, "gpuscope: recording; Ctrl-C stops")
	tick := time.NewTicker(s.Interval())
	defer tick.Stop()
	for {
		select {
		case sig := <-sigs:
			r.signal = sig.(syscall.Signal)
			return nil
		case <-until:
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
	var pr promReport
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
([gpu-idle-pipeline] §8.1); html is one self-contained page with charts.`,
		Example: `  gpuscope report run.jsonl
  gpuscope report run.jsonl --format markdown > benchmark.md
  gpuscope report run.jsonl.gz --format html > run.html
  gpuscope report smi.csv --from "2026-12-02 14:00:00" --to "2026-12-02 14:10:00"
  nvidia-smi -q | gpuscope report -
  gpuscope report smi.txt topo.txt dmesg.txt     several outputs of one node, one picture`,
		Args: cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats, from, to)
			if err != nil {
				return err
			}
			if pr.cfg.URL != "" || len(args) == 0 {
				r, err := pr.build(args, opts)
				if err != nil {
					return err
				}
				return writeReport(stdout, format, r.Text, r.Markdown, r.JSON, r.HTML)
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
	fl.StringVar(&pr.cfg.URL, "prometheus", "", "report a node's history from a Prometheus-compatible server instead of a file")
	fl.StringVar(&pr.node, "node", "", "with --prometheus: the node, by host name or instance")
	fl.DurationVar(&pr.step, "step", 15*time.Second, "with --prometheus: resolution of the history (the scrape interval)")
	return cmd
}

// promReport is `report --prometheus URL --node N --from T --to T`.
type promReport struct {
	cfg  promsource.Config
	node string
	step time.Duration
}

func (p promReport) build(args []string, opts report.Options) (*report.Report, error) {
	switch {
	case p.cfg.URL == "":
		return nil, usagef("report needs FILE, or --prometheus URL --node N")
	case len(args) > 0:
		return nil, usagef("report: FILE and --prometheus: choose one")
	case p.node == "":
		return nil, usagef("report --prometheus needs --node (a host name or an instance)")
	case p.step < time.Second:
		return nil, usagef("--step %s: use 1s or more", p.step)
	}
	if opts.To.IsZero() {
		opts.To = time.Now()
	}
	if opts.From.IsZero() {
		opts.From = opts.To.Add(-time.Hour)
	}
	src, err := promsource.New(p.cfg)
	if err != nil {
		return nil, usageError{err}
	}
	ctx := context.Background()
	key, err := src.Resolve(ctx, p.node, opts.To)
	if err != nil {
		return nil, err
	}
	// The diagnosis window reaches back before From, as it does in a file.
	hist, err := src.History(ctx, opts.From.Add(-diagnose.DefaultWindow), opts.To, p.step, promsource.NodeMatchers(key)...)
	if err != nil {
		return nil, err
	}
	opts.File, opts.Format = src.URL()+" "+key.Instance, "prometheus"
	return report.Build(&snapshotList{snaps: hist[key]}, opts)
}

// snapshotList is a report.Source over snapshots in memory.
type snapshotList struct{ snaps []sampler.Snapshot }

func (l *snapshotList) Next() (sampler.Snapshot, json.RawMessage, error) {
	if len(l.snaps) == 0 {
		return sampler.Snapshot{}, nil, io.EOF
	}
	s := l.snaps[0]
	l.snaps = l.snaps[1:]
	return s, nil, nil
}

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "compare BASE AFTER",
		Short: "Compare two recordings or logs: figures side by side, findings resolved or new, a verdict",
		Long: `compare reports both files and prints, per GPU, the figures of BASE and AFTER
with the change, the findings that went away, appeared or persisted, and a
one-line verdict. Record a baseline, change one thing, record again, compare
([gpu-idle-pipeline] §8.1, [gpu-idle-handbook] §2.3).`,
		Example: `  gpuscope compare before.jsonl after.jsonl
  gpuscope compare before.jsonl after.jsonl --format markdown >> benchmark.md`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(_ *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats[:3], "", "")
			if err != nil {
				return err
			}
			if args[0] == importer.Stdin && args[1] == importer.Stdin {
				return usagef("compare - -: standard input can be read once; give one of the two as a file")
			}
			base, after, err := report.BuildPair(args[0], args[1], opts)
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
		Args: usageArgs(cobra.ExactArgs(1)),
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
	timeline, warnings, err := replay.LoadSpool(path, "")
	if err != nil {
		for _, w := range warnings { // they say why a log yielded nothing
			fmt.Fprintf(stderr, "gpuscope: %s\n", safe.String(w))
		}
		return err
	}
	defer timeline.Close()
	for i, w := range warnings { // shown in the view: stderr is behind the full screen
		warnings[i] = safe.String(w)
	}
	m := replay.NewFrom(timeline, replay.Options{
		UI:         ui.DefaultOptions(styles, "REPLAY", 0), // 0: the recording's own interval
		NewTracker: func() *diagnose.Tracker { return diagnose.NewEvidenceViewTracker(diagnose.Options{}) },
		Name:       safe.String(filepath.Base(importer.DisplayName(path))),
		Speed:      f.speed,
		Warnings:   warnings,
	})
	popts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion()}
	if path == importer.Stdin { // the log came through stdin: keys come from the terminal
		popts = append(popts, tea.WithInputTTY())
	}
	return runProgram(tea.NewProgram(m, popts...), "replay")
}

// serveFlags are the flags of `gpuscope serve`.
type serveFlags struct {
	listen, webConfig, demo string
	seed                    int64
	interval                time.Duration
	noDCGM, noOwn           bool
	kubeletSocket           string
}

func newServeCmd(stderr io.Writer) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve this node's metrics and findings to Prometheus (/metrics, /snapshot, /findings)",
		Long: `serve samples this node (or the simulated one) every --interval, diagnoses each
tick, and serves the latest: /metrics in the Prometheus text format or
OpenMetrics, with dcgm-exporter's names (DCGM_FI_*) and gpuscope's own
(gpuscope_*, with per-process series and gpuscope_finding); /snapshot (the
--once --json document); /findings (JSON); /-/healthy and /-/ready. A scrape
never reads the GPUs. It binds to loopback unless --listen says otherwise;
--web.config.file adds TLS and basic auth (the exporter-toolkit file every
Prometheus exporter reads). docs/metrics.md lists every metric.`,
		Example: `  gpuscope serve                                  this node on 127.0.0.1:9400
  gpuscope serve --listen :9400 --web.config.file web.yml
  gpuscope serve --demo=input_starved --listen 127.0.0.1:9401`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			return runServe(f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:9400", "address to serve on (host:port; :9400 for every interface)")
	fl.StringVar(&f.webConfig, "web.config.file", "", "exporter-toolkit web config (TLS, basic auth)")
	fl.StringVar(&f.demo, "demo", "", "serve a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node (it also picks its host name)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.BoolVar(&f.noDCGM, "no-dcgm-names", false, "leave out the dcgm-exporter-compatible DCGM_FI_* series")
	fl.BoolVar(&f.noOwn, "no-gpuscope-names", false, "leave out the gpuscope_* series")
	fl.StringVar(&f.kubeletSocket, "kubelet-socket", podresources.DefaultSocket, "kubelet pod-resources socket: where readable, GPUs are labelled with their pod")
	return cmd
}

func runServe(f serveFlags, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.noDCGM && f.noOwn {
		return usagef("--no-dcgm-names and --no-gpuscope-names together leave nothing to serve")
	}
	if f.demo == "list" {
		return usagef("--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	tls, auth, err := promexport.ValidateWebConfig(f.webConfig)
	if err != nil {
		return usageError{err}
	}
	start := time.Now().Add(-prerollDemo)
	src, err := openSource(f.demo, false, f.seed, start, stderr)
	if err != nil {
		return err
	}
	if e := src.GPUError; e != nil { // still served: the host figures and gpu_error in /snapshot
		fmt.Fprintf(stderr, "gpuscope: no GPU to export (%s: %s); serving the host only (try gpuscope doctor, or --demo)\n", e.Tried, e.Err)
	}
	src.SetInterval(f.interval)
	var history []sampler.Snapshot
	if src.simulated {
		history = node.Preroll(src.Sampler, start, time.Now(), f.interval)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := promexport.Options{DCGM: !f.noDCGM, Own: !f.noOwn, Version: version}
	pods := "" // node.Live watches the default socket; another one replaces it
	if !src.simulated && f.kubeletSocket != podresources.DefaultSocket {
		node.WatchPods(src.Sampler, f.kubeletSocket)
	}
	if src.PodOf != nil && !src.simulated {
		opts.Pods, pods = src.PodOf, ", pods from "+f.kubeletSocket
	}
	state := promexport.NewState()
	h, err := promexport.Handler(state, opts)
	if err != nil {
		return err
	}
	go promexport.Feed(ctx, src.Sampler, history, state)
	return promexport.Serve(ctx, h, promexport.ServeConfig{
		Listen: f.listen, WebConfigFile: f.webConfig,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Started: func(addr net.Addr) {
			fmt.Fprintf(stderr, "gpuscope: serving %s (%s%s) on %s%s: /metrics /snapshot /findings /-/healthy /-/ready\n",
				src.Hostname, src.badge, pods, promexport.URL(addr, tls), map[bool]string{true: " with basic auth"}[auth])
		},
	})
}

// fleetIdleFor is how long a GPU must sit idle holding memory to be a fleet
// finding (promsource.Options.IdleFor).
const fleetIdleFor = 30 * time.Minute

// runFleet shows the fleet a Prometheus server holds: --once prints it,
// otherwise the fleet view runs with enter opening a node's dashboard.
func runFleet(f dashFlags, styles themes.Styles, stdout io.Writer) error {
	if f.demo != "" {
		return usagef("--prometheus and --demo: choose one (run `gpuscope serve --demo` exporters for a demo fleet)")
	}
	src, err := promsource.New(f.prom)
	if err != nil {
		return usageError{err}
	}
	load := func(ctx context.Context) (fleet.View, error) { return loadFleet(ctx, src, f.interval) }
	if f.once {
		v, err := load(context.Background())
		if err != nil {
			return err
		}
		if f.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		}
		return fleet.WriteText(stdout, v)
	}
	history := func(ctx context.Context, key promsource.NodeKey, from time.Time) ([]sampler.Snapshot, error) {
		h, err := src.History(ctx, from, time.Now(), f.interval, promsource.NodeMatchers(key)...)
		return h[key], err
	}
	m := fleet.New(fleet.Options{Styles: styles, Interval: f.interval, Load: load, History: history,
		Dashboard: func(badge string) ui.Options { return ui.DefaultOptions(styles, badge, f.interval) }})
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)).Run(); err != nil {
		return fmt.Errorf("fleet view: %w", err)
	}
	return nil
}

// loadFleet reads the fleet and diagnoses it: gpuscope exporters bring
// their own findings; nodes with dcgm-exporter alone are diagnosed from
// the last few minutes of their series, one query_range per field for all.
func loadFleet(ctx context.Context, src *promsource.Source, step time.Duration) (fleet.View, error) {
	now := time.Now()
	fl, err := src.Fleet(ctx, now, promsource.Options{IdleFor: fleetIdleFor})
	if err != nil {
		return fleet.View{}, err
	}
	results := map[promsource.NodeKey]fleetdiag.NodeResult{}
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
	return v, nil
}

// fleetDiagnosed bounds how many dcgm-exporter-only nodes a refresh
// diagnoses from their series, most wasteful first; the others are
// diagnosed when opened. Rebuilding every node's history costs the view
// memory in proportion: 1,000 nodes took ~220 MB at peak in
// BenchmarkFleet1000NodesOverPrometheus, which a cap of 50 keeps near the
// fleet's own size. Nodes running gpuscope serve bring their findings and
// cost nothing here.
const fleetDiagnosed = 50

// checkErrorStatus is check's status for any error, a usage mistake or an
// unreadable file alike, so that 1 and 2 always mean a warning and a
// critical finding (docs/exit-status.md).
const checkErrorStatus = 3

// checkFlags are the flags of `gpuscope check`.
type checkFlags struct {
	dur      time.Duration
	json     bool
	demo     string
	seed     int64
	interval time.Duration
	from     string
}

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Sample for a while, print the findings and exit by the worst (a health gate)",
		Long: `check samples this node (or the simulated one, or a recording or log given with
--from) for --for, with a progress line on stderr, then prints the last
snapshot as --once does, every finding with its evidence and first fix, and
the seven-step checklist of each GPU a finding names: a block to paste into a
chat or a ticket. --json prints the same as one JSON document.

Exit status: 0 no findings or only info, 1 a warning, 2 a critical finding,
3 an error (a usage mistake, an unreadable file, no GPU to read), so a job
prolog or a CI step can gate on it (docs/exit-status.md). With --demo the
simulated clock runs as fast as it can.`,
		Example: `  gpuscope check                          30 s of this node
  gpuscope check --for 2m --json > check.json
  gpuscope check --demo=thermal_throttle; echo $?
  gpuscope check --from run.jsonl.gz`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			return runCheck(f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.DurationVar(&f.dur, "for", 30*time.Second, "how long to sample (some rules need 45 s or more of data: input_starved opened at 45 s in the demo, not at 30 s)")
	fl.BoolVar(&f.json, "json", false, "print the verdict as JSON")
	fl.StringVar(&f.demo, "demo", "", "check a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.from, "from", "", "diagnose a recording or nvidia-smi / dcgmi log instead of sampling (- for standard input)")
	return cmd
}

func runCheck(f checkFlags, stdout, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.dur < f.interval {
		return usagef("--for %s is shorter than one sample (--interval %s)", f.dur, f.interval)
	}
	if f.demo == "list" {
		return usagef("--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	if f.from != "" && f.demo != "" {
		return usagef("--from and --demo: choose one")
	}
	var (
		fr       pipeline.Frame
		interval time.Duration
		err      error
	)
	switch {
	case f.from != "":
		fr, interval, err = checkFile(f.from, stderr)
	default:
		fr, interval, err = checkSample(f, stderr)
	}
	if err != nil {
		return err
	}
	return printCheck(fr, interval, f.json, stdout)
}

// checkFile diagnoses a whole recording or log through a collector, as
// replay does (with the evidence findings of logs without host data).
func checkFile(path string, stderr io.Writer) (pipeline.Frame, time.Duration, error) {
	snaps, warnings, err := replay.Load(path)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "gpuscope: %s\n", safe.String(w))
	}
	if err != nil {
		return pipeline.Frame{}, 0, err
	}
	if len(snaps) == 0 {
		return pipeline.Frame{}, 0, fmt.Errorf("%s: no snapshots to diagnose", path)
	}
	col := pipeline.New(&sampler.Sampler{}, pipeline.Options{Evidence: true})
	var fr pipeline.Frame
	for i, s := range snaps {
		fr = col.Push(s)
		progress(stderr, i+1, len(snaps), "snapshots")
	}
	fmt.Fprintln(stderr)
	interval := time.Second
	if len(snaps) > 1 {
		interval = snaps[len(snaps)-1].Time.Sub(snaps[0].Time) / time.Duration(len(snaps)-1)
	}
	return fr, interval, nil
}

// checkSample samples the live node on the wall clock, or the simulated one
// as fast as it can, for f.dur.
func checkSample(f checkFlags, stderr io.Writer) (pipeline.Frame, time.Duration, error) {
	start := time.Now()
	src, err := openSource(f.demo, false, f.seed, start, stderr)
	if err != nil {
		return pipeline.Frame{}, 0, err
	}
	defer src.Close()
	if e := src.GPUError; e != nil {
		return pipeline.Frame{}, 0, fmt.Errorf("no GPU to check: %s: %s (try gpuscope doctor, or --demo)", e.Tried, e.Err)
	}
	src.SetInterval(f.interval)
	col := pipeline.New(src.Sampler, pipeline.Options{})
	total := int(f.dur / f.interval)
	if src.simulated {
		var fr pipeline.Frame
		for i := range total {
			fr = col.Push(src.Tick(start.Add(time.Duration(i) * f.interval)))
			progress(stderr, i+1, total, "samples")
		}
		fmt.Fprintln(stderr)
		return fr, f.interval, nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, f.dur)
	defer cancel()
	frames := col.Subscribe()
	done := make(chan struct{})
	go func() { defer close(done); col.Run(ctx, nil) }()
	n := 0
	for range frames {
		n++
		progress(stderr, n, total, "samples")
	}
	<-done
	fmt.Fprintln(stderr)
	fr, ok := col.Latest()
	if !ok {
		return pipeline.Frame{}, 0, fmt.Errorf("check: stopped before the first sample")
	}
	return fr, f.interval, nil
}

// progress rewrites one line on stderr.
func progress(w io.Writer, n, total int, what string) {
	fmt.Fprintf(w, "\rgpuscope check: %d/%d %s", n, total, what)
}

// checkJSON is `check --json`'s document.
type checkJSON struct {
	Worst      string             `json:"worst"` // "none", "info", "warning" or "critical"
	Exit       int                `json:"exit"`
	SpanS      float64            `json:"span_s"`
	Samples    int                `json:"samples"`
	Findings   []diagnose.Finding `json:"findings"`
	Levels     []diagnose.Levels  `json:"levels"`
	Checklists [][]diagnose.Step  `json:"checklists"`
	Snapshot   sampler.Snapshot   `json:"snapshot"`
}

func printCheck(fr pipeline.Frame, interval time.Duration, asJSON bool, stdout io.Writer) error {
	d := fr.Diagnosis
	var fs []diagnose.Finding
	if d != nil {
		fs = d.Findings
	}
	worst, any := oneshot.Worst(fs)
	status, name := 0, "none"
	if any {
		name = worst.String()
		switch worst {
		case diagnose.Warning:
			status = 1
		case diagnose.Critical:
			status = 2
		}
	}
	var err error
	if asJSON {
		doc := checkJSON{Worst: name, Exit: status, SpanS: d.Span(interval).Seconds(), Findings: fs, Snapshot: fr.Snapshot}
		if doc.Findings == nil {
			doc.Findings = []diagnose.Finding{}
		}
		if d != nil {
			doc.Samples, doc.Levels, doc.Checklists = d.Samples, d.Levels, d.Checklists
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(doc)
	} else {
		err = oneshot.WriteCheck(stdout, fr.Snapshot, d, d.Span(interval))
	}
	if err != nil {
		return err
	}
	if status != 0 {
		return exitCode(status)
	}
	return nil
}

// applyConfig puts the settings file under the dashboard's flags: a flag
// the user gave wins, else the file's value, else the default. A bad file
// is one line on stderr and the dashboard starts with the defaults.
func applyConfig(fl *pflag.FlagSet, f *dashFlags, getenv func(string) string, stderr io.Writer) {
	path, err := config.Path(getenv)
	if err != nil {
		return // no HOME: nowhere to look, nothing to say
	}
	c, _, err := config.Load(path, ui.CheckKeys)
	if err != nil {
		fmt.Fprintf(stderr, "gpuscope: %v\n", err)
	}
	if !fl.Changed("interval") {
		f.interval = c.Interval
	}
	if !fl.Changed("theme") {
		f.theme = c.Theme
	}
	if !fl.Changed("no-color") {
		f.noColor = c.NoColor
	}
	if !fl.Changed("readonly") {
		f.readonly = c.Readonly
	}
	f.keys = c.Keys
}

func newConfigCmd(stdout io.Writer, getenv func(string) string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config path|show|init",
		Short: "Where the settings file is, what it sets, or write one with every key",
		Long: `The settings file is $XDG_CONFIG_HOME/gpuscope/config.toml, else
~/.config/gpuscope/config.toml. Flags win over it, and it wins over the
defaults. path prints where it is read; show prints the settings in effect
(the file over the defaults); init writes the file with every key commented
out at its default, and never overwrites one.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	path := func() (string, error) {
		p, err := config.Path(getenv)
		if err != nil {
			return "", err
		}
		return p, nil
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "Print where the settings file is read",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err == nil {
				fmt.Fprintln(stdout, p)
			}
			return err
		},
	}, &cobra.Command{
		Use:   "show",
		Short: "Print the settings in effect: the file over the defaults",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			c, found, err := config.Load(p, ui.CheckKeys)
			if err != nil {
				return err
			}
			if found {
				fmt.Fprintf(stdout, "# from %s over the defaults\n", p)
			} else {
				fmt.Fprintf(stdout, "# no %s: the defaults\n", p)
			}
			_, err = io.WriteString(stdout, config.Encode(c))
			return err
		},
	}, &cobra.Command{
		Use:   "init",
		Short: "Write the settings file with every key at its default (never overwrites)",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			p, err := path()
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return usagef("%s exists; edit it, or remove it first", p)
			} else if err != nil {
				return err
			}
			if _, err := io.WriteString(fh, config.Template); err != nil {
				fh.Close()
				return err
			}
			if err := fh.Close(); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %s\n", p)
			return nil
		},
	})
	return cmd
}
