package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/sampler"
)

// withChildren puts each GPU process's children (DataLoader workers, from
// Host.Procs) right under it, so "0 workers" or "workers at 100% CPU" reads
// at a glance.
func withChildren(rows []procRow, h *sampler.Host) []procRow {
	if h == nil {
		return rows
	}
	out := make([]procRow, 0, len(rows)*2)
	for _, r := range rows {
		out = append(out, r)
		if r.p.Host == nil {
			continue
		}
		for _, pid := range r.p.Host.Children {
			if ch := h.Procs[pid]; ch != nil {
				out = append(out, procRow{gpu: r.gpu, p: r.p, child: ch})
			}
		}
	}
	return out
}

// matches applies the filter: "gpu:N" selects a GPU, anything else is a
// case-insensitive substring of the user, the command or the container
// (namespace, pod, container name or id).
func (p *procPane) matches(r *procRow) bool {
	if p.graphicsOnly(r) {
		return false
	}
	f := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	if f == "" {
		return true
	}
	if n, ok := strings.CutPrefix(f, "gpu:"); ok {
		g, err := strconv.Atoi(n)
		return err == nil && g == r.gpu
	}
	h := hostOf(r)
	return strings.Contains(strings.ToLower(h.User), f) ||
		strings.Contains(strings.ToLower(h.Cmdline), f) || strings.Contains(strings.ToLower(h.Name), f) ||
		strings.Contains(strings.ToLower(containerText(h)), f)
}

func (p *procPane) toggleTree() {
	p.tree = !p.tree
	p.invalidate()
}

func (p *procPane) startFilter() {
	p.filtering = true
	p.filter.Focus()
	p.filter.Reset() // / starts a new filter, as in less and vim; esc keeps none
	p.cursor, p.top = 0, 0
	p.c.focus = focusProcs
	p.invalidate()
}

// filterKey edits the filter: enter keeps it, esc clears it, the rest is
// textinput's editing.
func (p *procPane) filterKey(k tea.KeyMsg) {
	km := &p.c.keys
	switch {
	case key.Matches(k, km.FilterKeep):
		p.filtering = false
		p.filter.Blur()
	case key.Matches(k, km.FilterClear):
		p.filtering = false
		p.filter.Blur()
		p.filter.Reset()
	default:
		p.filter, _ = p.filter.Update(k) // its cursor blinks only on messages we never send
	}
	p.cursor, p.top = 0, 0
	p.invalidate()
}

// selected is the row under the cursor.
func (p *procPane) selected() (procRow, bool) {
	p.collect()
	if len(p.rows) == 0 {
		return procRow{}, false
	}
	return p.rows[min(p.cursor, len(p.rows)-1)], true
}
