package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/replay"
	"github.com/spf13/cobra"
)

// replayFlags are the flags of `gpuscope replay`.
type replayFlags struct {
	speed   float64
	theme   string
	noColor bool
	lang    string   // --lang, else config.toml's language, else the locale
	tr      *i18n.Tr // the words of lang
}

func newReplayCmd(d Deps, stderr io.Writer) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE|TRACE",
		Short: "Play a recording or log in the dashboard, or draw a profiler trace's timeline",
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
read a 24 h recording with "gpuscope report" instead.

Given a profiler trace instead — a PyTorch profiler (Kineto) JSON, gzipped
or not, an Nsight Systems SQLite export, or a directory of them, one per
rank — replay draws its timeline: a strip per GPU stream (per rank for a
directory), time across, each column coloured by what the stream ran
(compute, communication, memory, sync) and as tall as it was busy; gaps
are dots. The findings "gpuscope report TRACE" gives are beside it, and the
line under the strips names the kernel or copy at the cursor (name,
duration, stream). The strips are drawn while the trace is still read;
zoomed in past their resolution, the window is read again in detail.

Trace keys: ←/→ one column (shift or PgUp/PgDn: ten) · +/- zoom in/out
around the cursor · 0 the whole trace · Home/End start/end · ↑/↓ the
stream the cursor names · q quits.`,
		Example: `  gpuscope replay run.jsonl
  gpuscope replay run.jsonl.gz --speed 10
  gpuscope replay dmon.log                 nvidia-smi dmon -o DT output
  gpuscope replay trace.pt.trace.json.gz   a PyTorch profiler trace
  gpuscope replay ./log/resnet50           tensorboard_trace_handler's directory, a strip set per rank
  gpuscope replay report.sqlite            nsys export --type sqlite`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			tr, err := commandWords(cmd, f.lang, d.Getenv)
			if err != nil {
				return err
			}
			f.tr = tr
			paths, err := replayTracePaths(args[0])
			if err != nil {
				return err
			}
			if paths != nil {
				return runTraceReplay(cmd.Context(), args[0], paths, f)
			}
			return runReplay(args[0], f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.Float64Var(&f.speed, "speed", 1, "playback speed: 0.5, 1, 2, 5, 10 or 60")
	fl.StringVar(&f.theme, "theme", "dark", "colour theme: dark, light or mono")
	fl.BoolVar(&f.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	langFlag(fl, &f.lang, "interface")
	return cmd
}

func runReplay(path string, f replayFlags, stderr io.Writer) error {
	if !slices.Contains(replay.Speeds(), f.speed) {
		var s []string
		for _, v := range replay.Speeds() {
			s = append(s, strconv.FormatFloat(v, 'f', -1, 64))
		}
		return usagef("speed", "--speed %v: use %s", f.speed, strings.Join(s, ", "))
	}
	styles, err := buildStyles(f.theme, f.noColor)
	if err != nil {
		return err
	}
	timeline, warnings, err := spool.Open(path, "")
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
	uiOpts := ui.DefaultOptions(styles, "REPLAY", 0) // 0: the recording's own interval
	uiOpts.Tr = f.tr
	m := replay.NewFrom(timeline, replay.Options{
		UI:         uiOpts,
		NewTracker: func() *diagnose.Tracker { return diagnose.NewEvidenceViewTracker(diagnose.Options{}) },
		Name:       safe.String(filepath.Base(importer.DisplayName(path))),
		Speed:      f.speed,
		Warnings:   warnings,
	})
	// A log that came through stdin: keys come from the terminal.
	if err := runPainted(m, "replay", screen{in: os.Stdin, out: os.Stdout, stderr: stderr, tty: path == importer.Stdin}); err != nil {
		return err
	}
	// Loading that failed after the first frame was shown on its own line;
	// the exit status says it too.
	return timeline.Progress().Err
}
