package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/spf13/cobra"
)

// recordFlags are the flags of `gpuscope record`.
type recordFlags struct {
	out      string
	duration time.Duration
	interval time.Duration
	demo     string
	seed     int64
	gpus     string
	realtime bool
	force    bool
	lang     string
	tr       *i18n.Tr // the progress lines' words, in lang
}

func newRecordCmd(d Deps, stderr io.Writer) *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record -o FILE",
		Short: "Record snapshots and findings to a JSON Lines file (.gz compresses)",
		Long: `record writes one snapshot per line, with the findings the diagnosis showed at
that moment, after a header line ({"gpuscope_recording": 3, ...}). Each line is
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
			tr, err := commandWords(cmd, f.lang, d.Getenv)
			if err != nil {
				return err
			}
			f.tr = tr
			return runRecord(cmd.Context(), d, f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "output", "o", "", "file to write (required); a .gz name compresses")
	fl.DurationVar(&f.duration, "duration", 0, "stop after this long (default: until Ctrl-C; 10m for --demo)")
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.StringVar(&f.demo, "demo", "", "record a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node")
	gpusFlag(fl, &f.gpus)
	fl.BoolVar(&f.realtime, "realtime", false, "with --demo: sample on the wall clock instead of as fast as possible")
	fl.BoolVar(&f.force, "force", false, "overwrite FILE if it exists (never through a symbolic link)")
	langFlag(fl, &f.lang, "progress lines'")
	return cmd
}

// demoRecordDefault bounds a demo recording given no --duration.
const demoRecordDefault = 10 * time.Minute

func runRecord(ctx context.Context, d Deps, f recordFlags, stderr io.Writer) error {
	if f.out == "" {
		return usagef("record_needs_out", "record needs -o FILE")
	}
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.duration < 0 {
		return usagef("duration_negative", "--duration %s is negative", f.duration)
	}
	if f.demo == "list" {
		return usagef("demo_list", "--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	start := time.Now()
	src, err := openSource(d, f.demo, false, f.seed, start, f.gpus, stderr)
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
	first := src.Tick(start)
	create := record.Create
	if f.force {
		create = record.Overwrite
	}
	w, err := create(f.out, record.HeaderFor(first, f.interval))
	if errors.Is(err, fs.ErrExist) {
		return usagef("out_exists", "%s exists; --force overwrites it", f.out)
	} else if err != nil {
		return err
	}
	if fast { // the demo can be recorded again: no sync block per line
		w.DeferFlush()
		// As fast as it can, record allocates as a reader does: the
		// collector paced alike (docs/benchmarks.md, "Recording a day:
		// the writer's text").
		defer readingGC(d.Getenv)()
	}
	// The same writer path as the dashboard's r: the collector diagnoses
	// each snapshot once and hands the frame to the recording.
	rec := record.NewToggle("", src.Interval)
	if err := rec.Start(w); err != nil {
		w.Close()
		return err
	}
	footer := startFooter(w, f.out, d.program())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var werr error // the first failed write; the Toggle has closed the file
	out := footer.wrap(rec)
	var bg *record.Async
	if fast { // sampling, diagnosis, and JSON and gzip each on a goroutine of their own
		bg = record.NewAsync(out)
		out = bg
	}
	sink := recordSink(out)
	take := sink.Take
	sink.Take = func(fr diagnose.Frame) error {
		err := take(fr)
		if err != nil && werr == nil {
			werr = err
			cancel()
		}
		return err
	}
	col := pipeline.New(src.Sampler, pipeline.Options{Tracker: diagnose.NewTracker(diagnose.Options{}), Sinks: []pipeline.Sink{sink}})
	col.Push(first)
	var sig syscall.Signal
	switch {
	case werr != nil:
	case fast:
		for snap := range ticksAhead(ctx, src.Sampler, start, start.Add(f.duration), f.interval) {
			if werr != nil {
				continue // cancelled: the sampler stops; drain what it sent
			}
			col.Push(snap)
		}
	default:
		sig = recordLive(ctx, col, f.interval, f.duration, stderr, f.tr.T("record.recording"))
	}
	if bg != nil {
		if err := bg.Wait(); err != nil && werr == nil {
			werr = err
		}
	}
	_, cerr := rec.Stop()
	err = errors.Join(werr, cerr)
	footer.finish(err == nil)
	fmt.Fprintln(stderr, f.tr.T("record.recorded", map[string]any{"Count": rec.Count(), "File": safe.Text(f.out)}))
	if err == nil && sig != 0 { // stopped by a signal: the file is complete
		return exitCode(128 + int(sig))
	}
	return err
}

// recordSink appends each of the loop's frames, with the findings it
// showed, to the recording w writes (a Toggle writes only while one is
// open). The dashboard's r and `gpuscope record` both write through it.
func recordSink(w record.FrameWriter) pipeline.Sink {
	text := &findingsText{} // used by one writer, in the frames' order
	return pipeline.Sink{Name: "recording", Take: func(fr diagnose.Frame) error {
		return w.Write(fr.Snapshot, recordFindings{text, fr.Findings()})
	}}
}

// recordLive runs the collector on the wall clock, from one interval after
// the first snapshot, until the duration ends, ctx is cancelled (a failed
// write) or SIGINT or SIGTERM arrives; it returns that signal, or 0.
func recordLive(ctx context.Context, col *pipeline.Collector, interval, dur time.Duration, stderr io.Writer, startLine string) syscall.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dur)
		defer cancel()
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	fmt.Fprintln(stderr, startLine)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select { // the first snapshot was taken at the start
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
		col.Run(ctx, nil)
	}()
	var sig syscall.Signal
	select {
	case s := <-sigs:
		sig = s.(syscall.Signal)
	case <-ctx.Done():
	}
	stop()
	<-done
	return sig
}
