package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// word is message id in the dashboard's language.
//
// Not inlined: a copy at each call site cost the binary; see docs/benchmarks.md,
// "Binary size and the glibc floor".
//
//go:noinline
func (c *common) word(id string) string {
	if c.tr == nil {
		return id
	}
	return c.tr.T(id)
}

// wordOr is message id, or fallback where there is no such message (a
// value from data the catalogue does not know).
func (c *common) wordOr(id, fallback string) string {
	if w := c.word(id); w != id {
		return w
	}
	return fallback
}

// fix is a finding's first fix in the dashboard's language (i18n.Tr.Fix).
func (c *common) fix(f diagnose.Finding) string { return c.tr.Fix(f.FixID, f.Hint) }

// count is plural message id for n in the dashboard's language.
func (c *common) count(id string, n int) string {
	if c.tr == nil {
		return id
	}
	return c.tr.N(id, n)
}

// localizeHelp gives the `?` overlay's rows their text in tr's language;
// the keys themselves (and any remapping) stay as they are.
func localizeHelp(km *keyMap, tr *i18n.Tr) {
	if tr == nil {
		return
	}
	for _, r := range []struct {
		b  *key.Binding
		id string
	}{
		{&km.Focus, "key.focus"}, {&km.Up, "key.up"}, {&km.Enter, "key.enter"}, {&km.GPUDetail, "key.gpu_detail"},
		{&km.Topology, "key.topology"}, {&km.Tree, "key.tree"}, {&km.Filter, "key.filter"}, {&km.Term, "key.term"},
		{&km.ToggleFindings, "key.panes"}, {&km.ComputeOnly, "key.compute_only"}, {&km.Back, "key.back"}, {&km.Sort, "key.sort"}, {&km.Pause, "key.pause"}, {&km.Record, "key.record"},
		{&km.Slower, "key.slower"}, {&km.Help, "key.help"}, {&km.Quit, "key.quit"},
		{&km.Replay.Play, "key.replay_play"}, {&km.Replay.StepBack, "key.replay_step"}, {&km.Replay.JumpBack, "key.replay_jump"},
		{&km.Replay.Start, "key.replay_ends"}, {&km.Replay.Slower, "key.replay_speed"},
	} {
		r.b.SetHelp(r.b.Help().Key, tr.T(r.id))
	}
}

// say is message id with its {{.Fields}} filled from data, in the
// dashboard's language.
//
// Not inlined: a copy at each call site cost the binary; see docs/benchmarks.md,
// "Binary size and the glibc floor".
//
//go:noinline
func (c *common) say(id string, data map[string]any) string {
	if c.tr == nil {
		return id
	}
	return c.tr.T(id, data)
}

// findingText is f's title, evidence and estimate in the dashboard's
// language (the finding's own English where it carries no messages).
func (c *common) findingText(f diagnose.Finding) (title, evidence, estimated string) {
	return c.tr.Finding(f)
}

// lang is the dashboard's language, "en" or "zh".
func (c *common) lang() string {
	if c.tr == nil {
		return "en"
	}
	return c.tr.Lang()
}
