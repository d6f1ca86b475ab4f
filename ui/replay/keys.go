package replay

import (
	"sort"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKey: the timeline keys (the key map's ReplayKeys, remappable and
// listed in ?) here; play never reaches the dashboard (on space, its pause
// would freeze the replay's pushes); the rest goes to the dashboard.
func (m Model) handleKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.warnShown { // the first key hides the warnings line; the key still acts
		m.warnShown = false
		m, _ = m.updateInner(m.innerSize())
	}
	rk := m.inner.ReplayKeys()
	switch {
	case m.typing() && k.String() != "ctrl+c": // text for the dashboard
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
	return m.updateInner(k)
}

// typing reports whether the dashboard is reading text (the process filter
// after /), when every key must reach it. ui.Painter hands a replay a
// burst of keys one by one, which the filter takes as typed.
func (m Model) typing() bool { return m.inner.CapturesKeys() }

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
