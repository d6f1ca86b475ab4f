package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reportFormats are the --format values of report (compare has no html).
var reportFormats = []string{"text", "markdown", "json", "html"}

func newReportCmd(d Deps, stdout io.Writer) *cobra.Command {
	var format, from, to, lang string
	var price float64
	var full bool
	var pr promReport
	cmd := &cobra.Command{
		Use:   "report FILE... (- for standard input)",
		Short: "Summarise a recording, an nvidia-smi / dcgmi log or a profiler trace: figures and findings",
		Long: `report reads a gpuscope recording (.jsonl or .jsonl.gz) or a log another tool
wrote — nvidia-smi --query-gpu CSV, nvidia-smi dmon / pmon, dcgmi dmon, or
nvidia-smi -q -x XML — or whatever GPU output was pasted: the nvidia-smi table,
-q text, topo -m, kernel Xid lines, nvidia-bug-report.log, several of them with
prompts and prose around (one line per section says what was read). Several
files are read as one node; "-" is standard input. Detected from the content,
it prints the environment, per GPU the distribution of GPU-Util / SM activity / tensor activity, memory
peak, power, temperature and time throttled, and the findings with evidence
and time ranges. The markdown form is a benchmark.md to keep in the project
([gpu-idle-pipeline] §8.1); html is one self-contained page with charts.

Given PyTorch profiler (Kineto) traces — *.pt.trace.json or .json.gz, one file
per rank, or the directory tensorboard_trace_handler wrote — it reads each
rank's timeline and prints the figures HTA defines (compute / non-compute /
idle, idle by cause, kernels, launches, copies, syncs, DataLoader, steps) and
the findings they confirm, with their evidence and the first fix (text or
json). Traces given with a recording or log of the same node are also set
beside it by wall clock: for each finding the counters had open while a
trace ran, whether the trace confirms it, names another cause, or cannot
show it (the trace must carry Kineto's baseTimeNanoseconds or be an nsys
export).`,
		Example: `  gpuscope report run.jsonl
  gpuscope report run.jsonl --format markdown > benchmark.md
  gpuscope report run.jsonl.gz --format html > run.html
  gpuscope report smi.csv --from "2026-12-02 14:00:00" --to "2026-12-02 14:10:00"
  nvidia-smi -q | gpuscope report -
  gpuscope report smi.txt topo.txt dmesg.txt     several outputs of one node, one picture
  gpuscope report ./log/resnet50                 the profiler's traces, one per rank
  gpuscope report run.jsonl.gz ./log/resnet50    the recording and the traces, aligned by wall clock`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats, from, to)
			if err != nil {
				return err
			}
			if opts.PricePerKWh, err = checkPrice(price); err != nil {
				return err
			}
			tr, err := commandWords(cmd, lang, d.Getenv)
			if err != nil {
				return err
			}
			if pr.cfg.URL != "" || len(args) == 0 {
				r, err := pr.build(cmd.Context(), args, opts)
				if err != nil {
					return err
				}
				return writeReport(stdout, format, tr, r)
			}
			defer readingGC(d.Getenv)()
			traces, stats, others, err := traceInputs(args)
			if err != nil {
				return err
			}
			if len(stats) > 0 {
				if len(traces)+len(others) > 0 {
					return usagef("report_stats_alone", "report: nsys stats summaries are read alone: their totals have no time to set beside a recording or a trace")
				}
				return reportStats(stdout, format, tr, stats)
			}
			if len(traces) > 0 {
				return reportTraces(stdout, format, tr, traces, others, opts)
			}
			r := (*summary.Report)(nil)
			if len(args) == 1 {
				r = footerReport(args[0], opts, d.program(), full)
			}
			if r == nil {
				r, err = fileReport(args, opts)
			}
			if err != nil {
				return err
			}
			return writeReport(stdout, format, tr, r)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "text, markdown, json or html")
	langFlag(fl, &lang, "report (text, markdown, html)")
	fl.StringVar(&from, "from", "", `start of the range: RFC 3339 or "2006-01-02 15:04:05" (UTC)`)
	fl.StringVar(&to, "to", "", "end of the range, same forms as --from")
	priceFlag(fl, &price)
	fullFlag(fl, &full)
	fl.StringVar(&pr.cfg.URL, "prometheus", "", "report a node's history from a Prometheus-compatible server instead of a file")
	fl.StringVar(&pr.node, "node", "", "with --prometheus: the node, by host name or instance")
	fl.DurationVar(&pr.step, "step", 15*time.Second, "with --prometheus: resolution of the history (the scrape interval)")
	return cmd
}

// fileReport opens recordings or logs as one node and builds their report.
func fileReport(paths []string, opts summary.Options) (*summary.Report, error) {
	f, err := importer.OpenFiles(paths)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return summary.BuildFrom(f, opts)
}

// promReport is `report --prometheus URL --node N --from T --to T`.
type promReport struct {
	cfg  promsource.Config
	node string
	step time.Duration
}

func (p promReport) build(ctx context.Context, args []string, opts summary.Options) (*summary.Report, error) {
	switch {
	case p.cfg.URL == "":
		return nil, usagef("report_needs_input", "report needs FILE, or --prometheus URL --node N")
	case len(args) > 0:
		return nil, usagef("report_file_and_prometheus", "report: FILE and --prometheus: choose one")
	case p.node == "":
		return nil, usagef("report_needs_node", "report --prometheus needs --node (a host name or an instance)")
	case p.step < time.Second:
		return nil, usagef("step", "--step %s: use 1s or more", p.step)
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
	snaps := sampler.Snapshots(hist[key])
	return summary.Build(&snaps, opts)
}

func newCompareCmd(d Deps, stdout, stderr io.Writer) *cobra.Command {
	var format, lang string
	var price float64
	var full bool
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
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := reportOptions(format, reportFormats[:3], "", "")
			if err != nil {
				return err
			}
			if opts.PricePerKWh, err = checkPrice(price); err != nil {
				return err
			}
			tr, err := commandWords(cmd, lang, d.Getenv)
			if err != nil {
				return err
			}
			if args[0] == importer.Stdin && args[1] == importer.Stdin {
				return usagef("compare_stdin_twice", "compare - -: standard input can be read once; give one of the two as a file")
			}
			defer readingGC(d.Getenv)()
			base, after, err := comparePair(args, opts, d.program(), full)
			if err != nil {
				return err
			}
			for _, r := range []*summary.Report{base, after} { // a skipped line, a torn end: as check says them
				for _, w := range r.Warnings {
					fmt.Fprintf(stderr, "gpuscope: %s: %s\n", safe.String(r.File), safe.String(w))
				}
			}
			return writeComparison(stdout, format, tr, summary.Compare(base, after))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, markdown or json")
	priceFlag(cmd.Flags(), &price)
	fullFlag(cmd.Flags(), &full)
	langFlag(cmd.Flags(), &lang, "comparison (text, markdown)")
	return cmd
}

// priceFlag is --price-per-kwh of report and compare.
func priceFlag(fl *pflag.FlagSet, price *float64) {
	fl.Float64Var(price, "price-per-kwh", 0, "price of a kWh (any currency): the energy figures add what they cost")
}

// fullFlag is --full of report and compare.
func fullFlag(fl *pflag.FlagSet, full *bool) {
	fl.BoolVar(full, "full", false, "read every line of a recording, not its footer's summary")
}

// comparePair reports compare's two inputs: from their footers where both
// have one, else both read together (BuildPair).
func comparePair(args []string, opts summary.Options, program string, full bool) (*summary.Report, *summary.Report, error) {
	b, a := footerReport(args[0], opts, program, full), footerReport(args[1], opts, program, full)
	if b != nil && a != nil {
		return b, a, nil
	}
	fb, fa, err := importer.OpenPair(args[0], args[1])
	if err != nil {
		return nil, nil, err
	}
	defer fb.Close()
	defer fa.Close()
	return summary.BuildPair(fb, fa, opts)
}

// checkPrice refuses a price no tariff has.
func checkPrice(price float64) (float64, error) {
	if price < 0 || math.IsNaN(price) || math.IsInf(price, 0) {
		return 0, usagef("price_per_kwh", "--price-per-kwh %v: give a price of 0 or more", price)
	}
	return price, nil
}

// reportOptions validates --format and parses --from/--to.
func reportOptions(format string, allowed []string, from, to string) (summary.Options, error) {
	var opts summary.Options
	if !slices.Contains(allowed, format) {
		return opts, usagef("format", "--format %q: use %s", format, strings.Join(allowed, ", "))
	}
	var err error
	if opts.From, err = parseWhen("--from", from); err != nil {
		return opts, err
	}
	if opts.To, err = parseWhen("--to", to); err != nil {
		return opts, err
	}
	if !opts.From.IsZero() && !opts.To.IsZero() && !opts.To.After(opts.From) {
		return opts, usagef("to_before_from", "--to %s is not after --from %s", to, from)
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
	return time.Time{}, usagef("time_format", `%s %q: use RFC 3339 (2026-12-02T14:00:00Z) or "2026-12-02 14:00:00" (UTC)`, flag, v)
}

// writeReport renders a report in the chosen format and language (JSON
// keeps its English keys and carries the findings' messages).
func writeReport(w io.Writer, format string, tr *i18n.Tr, r *summary.Report) error {
	in := report.In(tr)
	render := map[string]func(io.Writer, *summary.Report) error{
		"text": in.Text, "markdown": in.Markdown, "json": report.JSON, "html": in.HTML}[format]
	return render(w, r)
}

// writeComparison renders a comparison in the chosen format (no html) and language.
func writeComparison(w io.Writer, format string, tr *i18n.Tr, c *summary.Comparison) error {
	in := report.In(tr)
	render := map[string]func(io.Writer, *summary.Comparison) error{
		"text": in.CompareText, "markdown": in.CompareMarkdown, "json": report.CompareJSON}[format]
	return render(w, c)
}
