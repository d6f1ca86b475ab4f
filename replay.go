package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/replay"
)

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
wrote — nvidia-smi --query-gpu CSV, nvidia-smi dmon / pmon, dcgmi dmon, or
nvidia-smi -q -x XML, detected from its content — in the same dashboard, on any
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
	styles, err := themes.Build(f.theme, !f.noColor && os.Getenv("NO_COLOR") == "")
	if err != nil {
		return usageError{err}
	}
	timeline, warnings, err := loadTimeline(path)
	for _, w := range warnings { // before the error too: they say why a log yielded nothing
		fmt.Fprintf(stderr, "gpuscope: %s\n", w)
	}
	if err != nil {
		return err
	}
	m := replay.New(timeline, replay.Options{
		UI:           dashboardOptions(styles, "REPLAY", 0), // 0: the recording's own interval
		NewDiagnoser: func() ui.Diagnoser { return diagnose.NewEngine(diagnose.Options{}) },
		Name:         filepath.Base(path),
		Speed:        f.speed,
	})
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion()).Run(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// loadTimeline reads every snapshot of a recording or log, oldest first,
// with the importer's warnings.
func loadTimeline(path string) ([]sampler.Snapshot, []string, error) {
	stream, _, err := importer.Open(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, pe // "open FILE: no such file or directory"
	}
	if err != nil {
		return nil, nil, err
	}
	defer stream.Close()
	var out []sampler.Snapshot
	for {
		s, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
	}
	warnings := stream.Warnings()
	if len(out) == 0 {
		return nil, warnings, fmt.Errorf("%s: no snapshots", path)
	}
	// The timeline's jumps search by time; a log that was concatenated out
	// of order is played in time order rather than refused.
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
		warnings = append(warnings, path+": snapshots out of time order; played sorted by time")
	}
	return out, warnings, nil
}
