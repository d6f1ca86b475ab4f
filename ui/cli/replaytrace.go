package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/ui/tracereplay"
)

// replayTracePaths is the traces replay's argument names: a profiler trace
// (Kineto JSON, an nsys export) or a directory of them, one per rank; nil
// when it names neither (a recording or a log).
func replayTracePaths(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil // the recording's opener says why
	}
	if st.IsDir() {
		in, err := trace.InDir(path)
		if err == nil && len(in) == 0 {
			err = fmt.Errorf("%s: no profiler traces (*.json, *.json.gz with traceEvents, nsys *.sqlite exports) in this directory", path)
		}
		return in, err
	}
	if ok, err := trace.IsTraceFile(path); err == nil && ok {
		return []string{path}, nil
	}
	return nil, nil
}

// publishEvery is how often the loader hands the screen the strips so far.
const publishEvery = 250 * time.Millisecond

// loadTraces reads the traces one after the other into strips (published as
// they grow) and each rank's analysis, and publishes the report last.
func loadTraces(ctx context.Context, paths []string) <-chan tracereplay.Load {
	ch := make(chan tracereplay.Load, 1)
	go func() {
		defer close(ch)
		strips := timeline.NewStrips()
		var ranks []timeline.Rank
		last := time.Now()
		for i, p := range paths {
			procs, n := timeline.NewProcs(), 0
			m, err := trace.ReadFile(p, func(e trace.Event) error {
				strips.Add(i, e)
				if n++; n%4096 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
					if time.Since(last) >= publishEvery {
						select { // the screen takes it when it can; never wait for it
						case ch <- tracereplay.Load{Strips: strips.Clone()}:
						default:
						}
						last = time.Now()
					}
				}
				return procs.Add(e)
			})
			if err != nil {
				strips.SetRank(i, 0, m.Rank)
				send(ctx, ch, tracereplay.Load{Strips: strips.Clone(), Done: true, Err: err})
				return
			}
			for _, r := range procs.Ranks(m) {
				strips.SetRank(i, r.Proc, r.Rank)
				r.File = p
				ranks = append(ranks, r)
			}
		}
		send(ctx, ch, tracereplay.Load{Strips: strips.Clone(), Done: true, Report: timeline.NewReport(ranks)})
	}()
	return ch
}

func send(ctx context.Context, ch chan<- tracereplay.Load, l tracereplay.Load) {
	select {
	case ch <- l:
	case <-ctx.Done():
	}
}

// traceDetail reads [from, to) µs of the traces again at full resolution;
// the model matches its strips to the whole trace's by source, process,
// device and stream, so their ranks need not be set again.
func traceDetail(paths []string) func(ctx context.Context, from, to float64) (*timeline.Strips, error) {
	return func(ctx context.Context, from, to float64) (*timeline.Strips, error) {
		s := timeline.NewStripsIn(from, to)
		for i, p := range paths {
			n := 0
			_, err := trace.ReadFile(p, func(e trace.Event) error {
				if n++; n%4096 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				s.Add(i, e)
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		return s, nil
	}
}

// runTraceReplay draws the traces' timeline. A trace that fails before
// the first strips are due (not a trace after all, a ROCm or CPU-only
// profile, read in a fraction of a second) is one line and an exit status,
// not a screen.
func runTraceReplay(ctx context.Context, name string, paths []string, f replayFlags) error {
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	loads := loadTraces(ctx, paths)
	first, ok := <-loads
	if !ok {
		return ctx.Err()
	}
	if first.Done && first.Err != nil {
		return first.Err
	}
	fwd := make(chan tracereplay.Load, 1)
	var loadErr error // the forwarder's, read once fwd is closed
	go func() {
		defer close(fwd)
		for l, ok := first, true; ok; l, ok = <-loads {
			if l.Done {
				loadErr = l.Err
			}
			fwd <- l
		}
	}()
	m := tracereplay.New(tracereplay.Options{
		Styles: styles, Tr: f.tr, Name: safe.String(filepath.Base(name)),
		Updates: fwd, Detail: traceDetail(paths),
	})
	err = runProgram(tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate)), "replay")
	cancel()
	for range fwd { // until the loader has seen the cancel and stopped
	}
	if err != nil {
		return err
	}
	return loadErr // shown on the screen; the exit status says it too
}
