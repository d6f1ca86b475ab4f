package ui

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/docs"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
)

// DefaultOptions are the dashboard's settings shared by the live view and
// replay: the diagnosis views (three levels, checklist), the playbook pages
// and the labels. The caller adds the snapshot channel and the diagnoser.
func DefaultOptions(styles themes.Styles, badge string, interval time.Duration) Options {
	return Options{
		Styles:    styles,
		Levels:    levelsView,
		Checklist: checklistView,
		Playbook:  playbookPage,
		Interval:  interval,
		Badge:     badge,
		Rules:     len(diagnose.Rules),
	}
}

func levelsView(window []sampler.Snapshot, gpu int) LevelsView {
	l := diagnose.ThreeLevels(window, gpu)
	conv := func(x diagnose.Level) LevelView {
		return LevelView{Value: x.Value, Label: x.Label, Verdict: x.Verdict}
	}
	return LevelsView{KernelRunning: conv(l.KernelRunning), SMFilled: conv(l.SMFilled), Computing: conv(l.Computing)}
}

func checklistView(window []sampler.Snapshot, fs []diagnose.Finding) []StepView {
	steps := diagnose.Checklist(window, fs)
	out := make([]StepView, len(steps))
	for i, st := range steps {
		out[i] = StepView{N: st.N, Title: st.Title, Status: st.Status, Detail: st.Detail}
	}
	return out
}

func playbookPage(rule string, gpu, pid int) string {
	page, ok := docs.Playbook(rule)
	if !ok {
		return ""
	}
	return docs.Render(page, gpu, pid)
}
