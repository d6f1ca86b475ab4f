// Package cli is gpuscope's command line (cobra): flags, subcommands, help
// text and exit statuses, and the wiring of sources → collector → dashboard
// or a one-shot print for each command. It touches no hardware: main builds
// what reads NVML and /proc (the live node, the demo's fake driver, doctor)
// and injects it through Deps, so ui/... never links NVML
// (TestUINeverLinksNVML).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/sim"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Deps is what the commands need from outside ui: the hardware-touching
// constructors main owns, and the build's stamp.
type Deps struct {
	Version, Commit string // set by the linker in main
	// Live opens this machine (NVML and /proc). When no driver loads the
	// sampler still reads the host, GPUError says why, and ok is false.
	Live func() (s *sampler.Sampler, ok bool)
	// Demo opens the simulated node of a scenario (sim → fake NVML → the
	// production reader) with the named --demo-fault faults injected.
	Demo func(scenario string, seed int64, start time.Time, faults []string) (*sampler.Sampler, error)
	// WatchPods names GPU processes with their Kubernetes pods from the
	// kubelet pod-resources socket given (serve --kubelet-socket); Live
	// already watches the default one. It reports whether the socket exists.
	WatchPods func(s *sampler.Sampler, socket string) bool
	// ProcSocket makes a live sampler take this container's own GPU
	// processes from the socket of a host's `serve --proc-socket` where one
	// is at the path (--proc-socket); it reports whether one was.
	ProcSocket func(s *sampler.Sampler, path string) bool
	// ServeProcs listens at path for containers asking for their own GPU
	// processes (serve --proc-socket), answered from latest; serve runs
	// until its context ends.
	ServeProcs func(path string, latest func() []sampler.GPU) (serve func(context.Context) error, err error)
	// Faults lists the --demo-fault values.
	Faults func() []Fault
	// Doctor runs `gpuscope doctor`'s checks (sampler/doctor) on this
	// machine; the command prints them in the reader's language.
	Doctor func() []DoctorCheck
	// Getenv reads the environment (os.Getenv; tests give their own).
	Getenv func(string) string
}

// Fault is a failure the demo can show (--demo-fault).
type Fault struct{ ID, Summary string }

// ExitStatus maps how the command cmd ended to the process's exit status
// (docs/exit-status.md), printing err as one escaped line on stderr: 0 no
// error; a command's own status (ExitCode); 2 a usage mistake; 1 anything
// else. check reserves 1 and 2 for its findings, so any error there is 3.
func ExitStatus(cmd *cobra.Command, err error, stderr io.Writer) int {
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
		fmt.Fprintln(stderr, usageLine(cmd, err, ue))
		return usage
	default:
		fmt.Fprintln(stderr, runtimeLine(cmd, err))
		return other
	}
}

// usageError marks errors that are the user's to fix (bad flag, bad value):
// they print one line and exit 2, as the CLI contract requires. One made
// by usagef keeps its message id and arguments, so the line is printed in
// the reader's language (usage.go); cobra's own errors stay English.
type usageError struct{ error }

// usagef is a usage error: id names it in ui/i18n's cli.*.toml
// ("usage.<id>", whose English is format, word for word:
// TestUsageErrorsTranslated), format and a are its English.
func usagef(id, format string, a ...any) error {
	return usageError{usageMsg{fmt.Errorf(format, a...), id, a}}
}

// usageMsg is a usagef error: its English, message id and arguments.
type usageMsg struct {
	error
	id   string
	args []any
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
			return argsError(cmd, args)
		}
		return nil
	}
}

// argsError is the usage error for cmd's wrong positional arguments: the
// command's usage line instead of cobra's count of arguments,
// and for a word after gpuscope itself, the command it looks like (a
// mistyped "reprot" is "report").
func argsError(cmd *cobra.Command, args []string) error {
	if !cmd.HasParent() && len(args) > 0 {
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2 // cobra's own default, set where it suggests
		}
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			return usagef("command_like", "unknown command %q; did you mean %q?", args[0], s[0])
		}
		return usagef("command_unknown", "unknown command %q", args[0])
	}
	return usagef("args", "wrong number of arguments (%d); usage: %s", len(args), cmd.UseLine())
}

// dashFlags are the flags of the dashboard (root command).
type dashFlags struct {
	demo         string
	fallbackDemo bool
	seed         int64
	gpus         string
	alert        alertFlags
	bell         bool
	interval     time.Duration
	theme        string
	noColor      bool
	once         bool
	json         bool
	readonly     bool
	faults       []string            // --demo-fault
	keys         map[string][]string // config.toml's [keys]
	// config.toml's process pane at start (no flags: s, S and T change it)
	sort        string
	sortReverse bool
	tree        bool
	hide        []string // config.toml's hide: panes hidden at start
	computeOnly bool
	lang        string   // --lang, else config.toml's language, else the locale
	tr          *i18n.Tr // the words of lang
	prom        promsource.Config
	nodes       string        // --nodes: targets scraped directly
	scrapeTO    time.Duration // --scrape-timeout
	procSocket  string        // --proc-socket: a host's `serve --proc-socket`, used where it exists
}

// NewRoot builds the command tree: the dashboard at the root and every
// subcommand, writing to stdout and stderr.
func NewRoot(d Deps, stdout, stderr io.Writer) *cobra.Command {
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
			applyConfig(cmd.Flags(), &f, d.Getenv, stderr)
			lang, err := chooseLang(f.lang, d.Getenv)
			if err != nil {
				return err
			}
			f.lang, f.tr = lang, words(cmd, lang)
			return runDashboard(cmd.Context(), d, f, stdout, stderr)
		},
	}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	setRun(cmd, d.Getenv) // the environment and words a usage error needs after the command
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	fl := cmd.Flags()
	fl.StringVar(&f.demo, "demo", "", "run a simulated node; SCENARIO defaults to mixed, 'list' lists them")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.BoolVar(&f.fallbackDemo, "fallback-demo", false, "use the live node when NVML loads, else the demo (what make run does)")
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node (same seed, same run)")
	gpusFlag(fl, &f.gpus)
	addAlertFlags(fl, &f.alert)
	fl.BoolVar(&f.bell, "bell", false, "ring the terminal bell when a critical finding opens")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	fl.BoolVar(&f.once, "once", false, "print one snapshot to stdout and exit")
	fl.BoolVar(&f.json, "json", false, "with --once: print the snapshot as JSON")
	fl.StringVar(&f.procSocket, "proc-socket", sampler.ProcSocketPath, "inside a container: where the host's gpuscope serve --proc-socket answers for this container's own GPU processes, used when it exists ('' never)")
	fl.BoolVar(&f.readonly, "readonly", false, "no k/K: the dashboard never signals a process")
	fl.StringVar(&f.lang, "lang", "", "interface language: en or zh (default: config.toml's language, else LANGUAGE, LC_ALL, LC_MESSAGES, LANG)")
	fl.StringSliceVar(&f.faults, "demo-fault", nil, "with --demo: show a failure (lost, timeout, noperm, hostile, old-driver, no-events, revoked, foreign-pids, all; 'list' lists them)")
	fl.StringVar(&f.prom.URL, "prometheus", "", "show the fleet a Prometheus-compatible server (Prometheus, Thanos, VictoriaMetrics, Mimir) holds")
	fl.StringVar(&f.prom.Selector, "selector", "", `with --prometheus: label matchers every query gets, e.g. '{cluster="a"}'`)
	fl.StringVar(&f.prom.BearerTokenFile, "bearer-token-file", "", "with --prometheus: send the token in this file")
	fl.StringVar(&f.prom.BasicAuthUser, "basic-auth-user", "", "with --prometheus: basic auth user")
	fl.StringVar(&f.prom.BasicAuthPasswordFile, "basic-auth-password-file", "", "with --prometheus: file holding the basic auth password")
	fl.StringVar(&f.prom.CAFile, "tls-ca-file", "", "with --prometheus: CA certificate to verify the server")
	fl.StringVar(&f.prom.CertFile, "tls-cert-file", "", "with --prometheus: client certificate")
	fl.StringVar(&f.prom.KeyFile, "tls-key-file", "", "with --prometheus: client key")
	fl.BoolVar(&f.prom.InsecureSkipVerify, "tls-insecure-skip-verify", false, "with --prometheus: do not verify the server's certificate")
	fl.StringVar(&f.prom.JobLabel, "job-label", "", "with --prometheus or --nodes: the label naming a GPU's distributed job (default: its pod name without -worker-N)")
	fl.StringVar(&f.nodes, "nodes", "", "show the fleet of the `NODES` scraped directly, without a server: host:port,… or @FILE (one a line), each running gpuscope serve or dcgm-exporter")
	fl.DurationVar(&f.scrapeTO, "scrape-timeout", 5*time.Second, "with --nodes: how long each node may take to answer")

	cmd.AddCommand(newVersionCmd(d, stdout), newCheckCmd(d, stdout, stderr), newExplainCmd(d, stdout), newDoctorCmd(d, stdout), newRecordCmd(d, stderr), newReportCmd(d, stdout), newCompareCmd(d, stdout, stderr), newConfigCmd(stdout, d.Getenv),
		newReplayCmd(d, stderr), newServeCmd(d, stderr))
	addCompletions(cmd)
	addProfiling(cmd)
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
		if c.Flags().Lookup("lang") != nil {
			_ = c.RegisterFlagCompletionFunc("lang", fixed("en\tEnglish", "zh\t中文"))
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
				for _, r := range diagnose.Rules {
					out = append(out, r.ID+"\t"+docs.Summary(r.ID))
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
