package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/report"
)

// traceInputs splits report's arguments into profiler traces (files whose
// content is a Chrome-trace JSON, Kineto's, or an nsys export, or
// directories of them, tensorboard_trace_handler's, one file per rank) and
// the rest (recordings, logs), in argument order.
func traceInputs(args []string) (paths, stats, others []string, err error) {
	for _, a := range args {
		if a == importer.Stdin {
			others = append(others, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			others = append(others, a) // the log reader says why it cannot open it
			continue
		}
		if st.IsDir() {
			in, err := trace.InDir(a)
			if err != nil {
				return nil, nil, nil, err
			}
			if len(in) == 0 {
				return nil, nil, nil, fmt.Errorf("%s: no profiler traces (*.json, *.json.gz with traceEvents, nsys *.sqlite exports) in this directory", a)
			}
			paths = append(paths, in...)
			continue
		}
		if is, err := trace.IsTraceFile(a); err == nil && is {
			paths = append(paths, a)
			continue
		}
		if is, err := trace.IsStatsFile(a); err == nil && is {
			stats = append(stats, a)
			continue
		}
		others = append(others, a)
	}
	return paths, stats, others, nil
}

// reportTraces writes what the traces prove; beside a recording or log
// of the same node (others), the two by wall clock as well.
func reportTraces(w io.Writer, format string, tr *i18n.Tr, paths, others []string, opts summary.Options) error {
	switch format {
	case "text", "json":
	default:
		return usagef("report_trace_format", "--format %q: a profiler trace's report is text or json", format)
	}
	t, err := readTraces(paths)
	if err != nil {
		return err
	}
	if len(others) == 0 {
		if format == "json" {
			return report.TraceJSON(w, t)
		}
		return report.In(tr).Trace(w, t)
	}
	r, err := fileReport(others, opts)
	if err != nil {
		return err
	}
	a := summary.Align(r, t)
	if format == "json" {
		return report.AlignedJSON(w, r, t, a)
	}
	return report.In(tr).Aligned(w, r, t, a)
}

// readTraces reads each trace (one rank each) on its own goroutine, at most
// one per core, into what they prove.
func readTraces(paths []string) (*timeline.Report, error) {
	ranks := make([][]timeline.Rank, len(paths)) // an nsys export may hold several
	errs := make([]error, len(paths))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			procs := timeline.NewProcs()
			m, err := trace.ReadFile(p, procs.Add)
			if err != nil {
				errs[i] = err
				return
			}
			ranks[i] = procs.Ranks(m)
			for j := range ranks[i] {
				ranks[i][j].File = p
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err // the first file's, in argument order
		}
	}
	return timeline.NewReport(slices.Concat(ranks...)), nil
}

// reportStats reads `nsys stats --format csv` summaries (one or several
// files of one run) and writes what totals prove, and what they cannot.
func reportStats(w io.Writer, format string, tr *i18n.Tr, paths []string) error {
	switch format {
	case "text", "json":
	default:
		return usagef("report_trace_format", "--format %q: a profiler trace's report is text or json", format)
	}
	all := &trace.Stats{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		st, err := trace.ReadStats(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		all.Tables = append(all.Tables, st.Tables...)
	}
	s := timeline.Summarise(all)
	if format == "json" {
		return report.SummaryJSON(w, &s)
	}
	return report.In(tr).Summary(w, &s)
}
