package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/oneshot"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// checkErrorStatus is check's status for any error, a usage mistake or an
// unreadable file alike, so that 1 and 2 always mean a warning and a
// critical finding (docs/exit-status.md).
const checkErrorStatus = 3

// checkNotJudgedStatus is check's status when nothing was found but the span
// was too short for some rules: a prolog gating on 0 must not pass a node
// that was never judged (docs/exit-status.md).
const checkNotJudgedStatus = 4

// defaultCheckFor gives every rule its data (diagnose.JudgeAllSpan),
// rounded up to 2 minutes.
func defaultCheckFor() time.Duration {
	return max(2*time.Minute, diagnose.JudgeAllSpan())
}

// checkFlags are the flags of `gpuscope check`.
type checkFlags struct {
	dur      time.Duration
	json     bool
	demo     string
	seed     int64
	gpus     string
	faults   []string // --demo-fault
	interval time.Duration
	from     string
	lang     string
	job      string   // --job: the verdict on this job's GPUs only (checkjob.go)
	tr       *i18n.Tr // the verdict's words, in lang
}

func newCheckCmd(d Deps, stdout, stderr io.Writer) *cobra.Command {
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
3 an error (a usage mistake, an unreadable file, no GPU to read), 4 no
findings but a --for too short for some rules (they are named), so a job
prolog or a CI step can gate on it (docs/exit-status.md). With --demo the
simulated clock runs as fast as it can.`,
		Example: `  gpuscope check                          2 minutes of this node
  gpuscope check --for 2m --json > check.json
  gpuscope check --demo=thermal_throttle; echo $?
  gpuscope check --from run.jsonl.gz`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			tr, err := commandWords(cmd, f.lang, d.Getenv)
			if err != nil {
				return err
			}
			f.tr = tr
			return runCheck(cmd.Context(), d, f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.DurationVar(&f.dur, "for", defaultCheckFor(), "how long to sample; a shorter span leaves the rules that need more data not judged (exit 4)")
	fl.BoolVar(&f.json, "json", false, "print the verdict as JSON")
	fl.StringVar(&f.demo, "demo", "", "check a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node")
	gpusFlag(fl, &f.gpus)
	fl.StringSliceVar(&f.faults, "demo-fault", nil, "with --demo: check a failure of the node's reader (lost, timeout, noperm, ...; gpuscope --demo-fault list)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.from, "from", "", "diagnose a recording or nvidia-smi / dcgmi log instead of sampling (- for standard input)")
	fl.StringVar(&f.job, "job", "", "judge only the GPUs this Slurm job (or pod, NAMESPACE/NAME) held and print one paragraph: GPU-hours held and used, the main cause, the first fix (a Slurm epilogue: docs/jobs.md)")
	langFlag(fl, &f.lang, "output")
	return cmd
}

func runCheck(ctx context.Context, d Deps, f checkFlags, stdout, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.dur < f.interval {
		return usagef("check_for_short", "--for %s is shorter than one sample (--interval %s)", f.dur, f.interval)
	}
	if f.demo == "list" {
		return usagef("demo_list", "--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	if f.from != "" && f.demo != "" {
		return usagef("from_and_demo", "--from and --demo: choose one")
	}
	if len(f.faults) > 0 && f.demo == "" {
		return usagef("fault_needs_demo", "--demo-fault needs --demo: faults are shown on the simulated node")
	}
	if err := checkJobFlag(f.job); err != nil {
		return err
	}
	var (
		fr       diagnose.Frame
		interval time.Duration
		err      error
		hours    *summary.Hours
	)
	if f.job != "" {
		hours = &summary.Hours{}
	}
	switch {
	case f.from != "":
		fr, interval, err = checkFile(f.from, hours, stderr)
	default:
		fr, interval, err = checkSample(ctx, d, f, hours, stderr)
	}
	if err != nil {
		return err
	}
	if f.job != "" {
		return printJob(fr, interval, hours.Result(), f, stdout)
	}
	return printCheck(fr, interval, f.json, f.tr, stdout)
}

// checkFile diagnoses a whole recording or log with the one Tracker, as
// replay does (with the evidence findings of logs without host data).
func checkFile(path string, hours *summary.Hours, stderr io.Writer) (diagnose.Frame, time.Duration, error) {
	snaps, warnings, err := spool.Load(path)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "gpuscope: %s\n", safe.String(w))
	}
	if err != nil {
		return diagnose.Frame{}, 0, err
	}
	if len(snaps) == 0 {
		return diagnose.Frame{}, 0, fmt.Errorf("%s: no snapshots to diagnose", path)
	}
	tr := diagnose.NewEvidenceViewTracker(diagnose.Options{})
	var fr diagnose.Frame
	var health diagnose.HealthLog
	pw := progressTo(stderr)
	for i, s := range snaps {
		if hours != nil {
			hours.Add(&s)
		}
		fr = tr.Observe(s)
		health.Observe(fr)
		progress(pw, i+1, len(snaps), "snapshots")
	}
	fr = withHealth(fr, &health)
	fmt.Fprintln(pw)
	interval := time.Second
	if len(snaps) > 1 {
		interval = snaps[len(snaps)-1].Time.Sub(snaps[0].Time) / time.Duration(len(snaps)-1)
	}
	return fr, interval, nil
}

// checkSample samples the live node on the wall clock, or the simulated one
// as fast as it can, for f.dur.
func checkSample(ctx context.Context, d Deps, f checkFlags, hours *summary.Hours, stderr io.Writer) (diagnose.Frame, time.Duration, error) {
	start := time.Now()
	src, err := openSource(d, f.demo, false, f.seed, start, f.gpus, stderr, f.faults...)
	if err != nil {
		return diagnose.Frame{}, 0, err
	}
	defer src.Close()
	if e := src.GPUError; e != nil {
		return diagnose.Frame{}, 0, fmt.Errorf("no GPU to check: %s: %s (try gpuscope doctor, or --demo)", e.Tried, e.Err)
	}
	src.SetInterval(f.interval)
	var health diagnose.HealthLog
	col := pipeline.New(src.Sampler, pipeline.Options{Sinks: []pipeline.Sink{{Name: "check", Take: func(fr diagnose.Frame) error {
		health.Observe(fr)
		if hours != nil {
			hours.Add(&fr.Snapshot)
		}
		return nil
	}}}})
	total := int(f.dur / f.interval)
	pw := progressTo(stderr)
	if src.simulated {
		var fr diagnose.Frame
		for i := range total {
			fr = col.Push(src.Tick(start.Add(time.Duration(i) * f.interval)))
			progress(pw, i+1, total, "samples")
		}
		fmt.Fprintln(pw)
		return withHealth(fr, &health), f.interval, nil
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, f.dur)
	defer cancel()
	frames := col.Subscribe()
	done := make(chan struct{})
	go func() { defer close(done); col.Run(ctx, nil) }()
	n := 0
	for range frames {
		n++
		progress(pw, n, total, "samples")
	}
	<-done
	fmt.Fprintln(pw)
	fr, ok := col.Latest()
	if !ok {
		return diagnose.Frame{}, 0, fmt.Errorf("check: stopped before the first sample")
	}
	return withHealth(fr, &health), f.interval, nil // the collector has stopped: health is settled
}

// withHealth is the last frame with the health findings the run saw and
// that closed before its end (diagnose.HealthLog), so the verdict counts a
// GPU lost and reset during the check.
func withHealth(fr diagnose.Frame, h *diagnose.HealthLog) diagnose.Frame {
	if fr.Diagnosis == nil {
		return fr
	}
	d := *fr.Diagnosis
	d.Findings = h.Verdict(d.Findings)
	fr.Diagnosis = &d
	return fr
}

// progressTo is where check's progress line goes: stderr when it is a
// terminal; into a job's log or a pipe a line rewritten with \r piles up
// ("1/2 snapshots2/2 snapshots"), so nothing goes there.
func progressTo(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return w
	}
	return io.Discard
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
	NotJudged  []string           `json:"not_judged"` // rules the span was too short for
	Levels     []diagnose.Levels  `json:"levels"`
	Checklists [][]diagnose.Step  `json:"checklists"`
	Snapshot   sampler.Snapshot   `json:"snapshot"`
	// Job is --job's GPUs and GPU-hours; the findings are then its GPUs'.
	Job *checkJobJSON `json:"job,omitempty"`
}

func printCheck(fr diagnose.Frame, interval time.Duration, asJSON bool, tr *i18n.Tr, stdout io.Writer) error {
	d := fr.Diagnosis
	var fs []diagnose.Finding
	if d != nil {
		fs = d.Findings
	}
	status, name, notJudged := checkStatus(fs, d.Span(interval))
	var err error
	if asJSON {
		doc := checkJSON{Worst: name, Exit: status, NotJudged: notJudged, SpanS: d.Span(interval).Seconds(), Findings: fs, Snapshot: fr.Snapshot}
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
		err = oneshot.WriteCheckLang(stdout, fr.Snapshot, d, d.Span(interval), tr)
	}
	if err != nil {
		return err
	}
	if status != 0 {
		return exitCode(status)
	}
	return nil
}

// checkStatus is check's exit status for findings fs over span, the worst
// severity's name and the rules span was too short for
// (docs/exit-status.md).
func checkStatus(fs []diagnose.Finding, span time.Duration) (status int, name string, notJudged []string) {
	name = "none"
	if worst, any := diagnose.Worst(fs); any {
		name = worst.String()
		switch worst {
		case diagnose.Warning:
			status = 1
		case diagnose.Critical:
			status = 2
		}
	}
	notJudged = []string{}
	for _, r := range diagnose.NotJudged(span) {
		notJudged = append(notJudged, r.ID)
	}
	if status == 0 && len(notJudged) > 0 {
		status = checkNotJudgedStatus
	}
	return status, name, notJudged
}

// applyConfig puts the settings file under the dashboard's flags: a flag
