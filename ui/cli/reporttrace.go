package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/report"
)

// traceInputs are report's arguments when they are profiler traces: files
// whose content is a Chrome-trace JSON (Kineto's), or directories of them
// (tensorboard_trace_handler's, one file per rank). ok is false when none
// is: the arguments are recordings or logs.
func traceInputs(args []string) (paths []string, ok bool, err error) {
	traces, others := 0, 0
	for _, a := range args {
		if a == importer.Stdin {
			others++
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			others++ // the log reader says why it cannot open it
			continue
		}
		if st.IsDir() {
			in, err := trace.InDir(a)
			if err != nil {
				return nil, false, err
			}
			if len(in) == 0 {
				return nil, false, fmt.Errorf("%s: no profiler traces (*.json, *.json.gz with traceEvents, nsys *.sqlite exports) in this directory", a)
			}
			paths, traces = append(paths, in...), traces+1
			continue
		}
		if is, err := trace.IsTraceFile(a); err == nil && is {
			paths, traces = append(paths, a), traces+1
			continue
		}
		others++
	}
	switch {
	case traces == 0:
		return nil, false, nil
	case others > 0:
		return nil, false, usagef("report_traces_and_logs", "report: profiler traces and GPU logs or recordings together: give one kind")
	}
	return paths, true, nil
}

// reportTraces reads each trace (one rank each) on its own goroutine, at
// most one per core, and writes what they prove.
func reportTraces(w io.Writer, format string, tr *i18n.Tr, paths []string) error {
	switch format {
	case "text", "json":
	default:
		return usagef("report_trace_format", "--format %q: a profiler trace's report is text or json", format)
	}
	ranks := make([]timeline.Rank, len(paths))
	errs := make([]error, len(paths))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			b := timeline.New()
			m, err := trace.ReadFile(p, b.Add)
			if err != nil {
				errs[i] = err
				return
			}
			ranks[i] = b.Rank(m)
			ranks[i].File = p
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // the first file's, in argument order
		}
	}
	r := timeline.NewReport(ranks)
	if format == "json" {
		return report.TraceJSON(w, r)
	}
	return report.In(tr).Trace(w, r)
}
