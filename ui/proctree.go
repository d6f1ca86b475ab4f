package ui

import (
	"strconv"
	"strings"

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
// case-insensitive substring of the user or the command.
func (p *procPane) matches(r *procRow) bool {
	f := strings.ToLower(strings.TrimSpace(p.filter))
	if f == "" {
		return true
	}
	if n, ok := strings.CutPrefix(f, "gpu:"); ok {
		g, err := strconv.Atoi(n)
		return err == nil && g == r.gpu
	}
	h := hostOf(r)
	return strings.Contains(strings.ToLower(h.User), f) ||
		strings.Contains(strings.ToLower(h.Cmdline), f) || strings.Contains(strings.ToLower(h.Name), f)
}

func (p *procPane) toggleTree() {
	p.tree = !p.tree
	p.invalidate()
}

func (p *procPane) startFilter() {
	p.filtering = true
	p.c.focus = focusProcs
	p.invalidate()
}

// filterKey edits the filter: enter keeps it, esc clears it.
func (p *procPane) filterKey(k tea.KeyMsg) {
	switch k.Type {
	case tea.KeyEnter:
		p.filtering = false
	case tea.KeyEsc:
		p.filtering, p.filter = false, ""
	case tea.KeyBackspace:
		if r := []rune(p.filter); len(r) > 0 {
			p.filter = string(r[:len(r)-1])
		}
	case tea.KeyRunes, tea.KeySpace:
		p.filter += string(k.Runes)
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
