package replay

import (
	"sort"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/ui"
)

// handleKey: the timeline keys (the key map's ReplayKeys, remappable and
// listed in ?) here; play never reaches the dashboard (on space, its pause
// would freeze the replay's pushes); the rest goes to the dashboard.
func (m Model) handleKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.warnShown { // the first key hides the warnings line; the key still acts
		m.warnShown = false
		m, _ = m.updateInner(m.innerSize())
	}
	if m.typing() && k.String() != "ctrl+c" {
		return m.forward(k)
	}
	rk := m.inner.ReplayKeys()
	switch {
	case key.Matches(k, rk.Play):
		m.playing = !m.playing
		if m.playing && m.atEnd() {
			m = m.seek(0) // play at END starts over
		}
		return m.reschedule()
	case key.Matches(k, rk.StepBack):
		m.playing = false
		return m.seek(m.cursor - 1).reschedule()
	case key.Matches(k, rk.StepForward):
		m.playing = false
		return m.seek(m.cursor + 1).reschedule()
	case key.Matches(k, rk.JumpBack):
		return m.seek(m.indexAt(-jumpStep)).reschedule()
	case key.Matches(k, rk.JumpForward):
		return m.seek(m.indexAt(jumpStep)).reschedule()
	case key.Matches(k, rk.Start):
		return m.seek(0).reschedule()
	case key.Matches(k, rk.End):
		m.playing = false
		return m.seek(m.src.Len() - 1).reschedule()
	case key.Matches(k, rk.Slower):
		m.speedIdx = max(0, m.speedIdx-1)
		return m.reschedule()
	case key.Matches(k, rk.Faster):
		m.speedIdx = min(len(Speeds())-1, m.speedIdx+1)
		return m.reschedule()
	case k.String() == "ctrl+c" || k.String() == "q":
		return m, tea.Quit
	}
	return m.forward(k)
}

// handleKeys handles a burst ("]]" in one read, ui.Burst) key by key, as
// the dashboard does, unless the dashboard takes keys whole; the rest of a
// burst that opened the dashboard's y/n question is dropped.
func (m Model) handleKeys(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	keys := ui.Burst(k)
	if keys == nil || m.typing() {
		return m.handleKey(k)
	}
	var cmds []tea.Cmd
	for _, k := range keys {
		if m.inner.Asking() {
			break
		}
		next, cmd := m.handleKey(k)
		m, cmds = next.(Model), append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// forward sends a key to the dashboard.
func (m Model) forward(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "/":
		m.filterGuess = true
	case "enter", "esc":
		m.filterGuess = false
	}
	return m.updateInner(k)
}

// keyCapturer is a dashboard that can say it is reading text (the process
// filter after /), when every key must reach it.
type keyCapturer interface{ CapturesKeys() bool }

// typing says whether keys are text for the dashboard. Without
// keyCapturer it is a guess that mirrors the filter: / starts it, enter or
// esc ends it. Wrong only when / opened no filter (an overlay was up), and
// then only until the next enter or esc.
func (m Model) typing() bool {
	if kc, ok := any(m.inner).(keyCapturer); ok {
		return kc.CapturesKeys()
	}
	return m.filterGuess
}

// reschedule drops pending ticks and schedules the next one; playback
// stops at the end.
func (m Model) reschedule() (tea.Model, tea.Cmd) {
	if m.atEnd() {
		m.playing = false
	}
	m.gen++
	return m, m.schedule()
}

// indexAt is the first snapshot at or after the cursor's time plus d, at
// least one step from the cursor when there is one.
func (m Model) indexAt(d time.Duration) int {
	t := m.src.Time(m.cursor).Add(d)
	i := sort.Search(m.src.Len(), func(j int) bool { return !m.src.Time(j).Before(t) })
	if d > 0 {
		i = max(i, m.cursor+1)
	} else {
		i = min(i, m.cursor-1)
	}
	return min(max(i, 0), m.src.Len()-1)
}
