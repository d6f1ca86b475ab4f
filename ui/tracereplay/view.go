package tracereplay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuscope/gpuscope/diagnose/timeline"
)

// levels draw how busy a column was, an eighth at a time; an idle column
// is a muted dot, so gaps show as gaps.
var levels = []rune("▁▂▃▄▅▆▇█")

// sideMin is the narrowest screen with the findings beside the strips
// rather than under them.
const sideMin = 140

// View is the header, the time axis, the strips, the cursor's line and the
// legend, with the findings beside (wide screens) or under them.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	lines := []string{m.header()}
	if m.strips == nil {
		lines = append(lines, m.opts.Styles.Muted.Render(m.say("tracereplay.reading", "Events", 0)))
		if m.done && m.err != nil {
			lines = append(lines, m.opts.Styles.Crit.Render(m.say("tracereplay.failed", "Err", m.err.Error())))
		}
		return m.fit(lines, m.w)
	}
	mainW, sideW := m.areas()
	body := []string{m.axis(mainW)}
	body = append(body, m.stripLines(mainW)...)
	body = append(body, m.cursorLine(mainW))
	if sideW > 0 {
		for len(body) < m.h-2 {
			body = append(body, "")
		}
		side := m.findingLines(sideW, m.h-1)
		sep := m.opts.Styles.Border.Render("│")
		for i := range body {
			s := ""
			if i < len(side) {
				s = side[i]
			}
			body[i] = pad(body[i], mainW) + sep + s
		}
	} else {
		body = append(body, m.findingLines(m.w, m.findRows())...)
	}
	lines = append(lines, body...)
	for len(lines) < m.h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:m.h-1], m.legend())
	return m.fit(lines, m.w)
}

// fit cuts or pads lines to exactly h lines of at most w cells.
func (m Model) fit(lines []string, w int) string {
	for len(lines) < m.h {
		lines = append(lines, "")
	}
	lines = lines[:m.h]
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}

func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// areas are the strips' width and the findings' beside them (0: under).
func (m Model) areas() (mainW, sideW int) {
	if m.w < sideMin {
		return m.w, 0
	}
	sideW = min(72, m.w/3)
	return m.w - sideW - 1, sideW
}

// findRows is how many lines the findings get under the strips: what
// the strips leave, a third of the screen at least.
func (m Model) findRows() int {
	if _, side := m.areas(); side > 0 {
		return 0
	}
	return m.h - 4 - m.stripRows()
}

// stripRows is how many strips are shown: the screen less the header, the
// axis, the cursor's line and the legend (and, on a narrow screen, the
// findings' third), no more than there are.
func (m Model) stripRows() int {
	avail := m.h - 4
	if _, side := m.areas(); side == 0 {
		avail -= max(2, avail/3)
	}
	n := 1
	if m.strips != nil {
		n = m.strips.Len()
	}
	return max(1, min(n, avail))
}

// labelWidth is the strips' label column.
func (m Model) labelWidth() int { return 11 }

// barWidth is the columns of time.
func (m Model) barWidth() int {
	mainW, _ := m.areas()
	return max(1, mainW-m.labelWidth())
}

func (m Model) header() string {
	st := &m.opts.Styles
	parts := []string{st.BadgeInfo.Render(" " + m.say("tracereplay.badge") + " "), st.Header.Render(m.opts.Name)}
	if m.strips != nil {
		parts = append(parts, m.say("tracereplay.window", "From", m.rel(m.v0), "To", m.rel(m.v1)))
	}
	switch {
	case !m.done:
		parts = append(parts, st.Warn.Render(m.say("tracereplay.loading")))
	case m.err != nil:
		parts = append(parts, st.Crit.Render(m.say("tracereplay.failed", "Err", m.err.Error())))
	case m.fining:
		parts = append(parts, st.Warn.Render(m.say("tracereplay.detail")))
	}
	if m.strips != nil {
		parts = append(parts, st.Muted.Render(m.plural("tracereplay.summary", m.strips.Len(), "Events", m.strips.Events)))
	}
	return strings.Join(parts, " ")
}

// rel is a time of the trace as an offset from its first event, to the
// precision of a column.
func (m Model) rel(t float64) string {
	from, _, _ := m.strips.Span()
	return clockTo(t-from, m.colWidth())
}

// clock is a duration in µs to three figures, in the unit that fits.
func clock(us float64) string { return clockTo(us, 0) }

// clockTo is a duration in µs in the unit that fits, with the decimals
// that tell apart times step µs apart (three figures when step is 0).
func clockTo(us, step float64) string {
	a, unit, name := max(us, -us), 1.0, "µs"
	switch {
	case a >= 1e6:
		unit, name = 1e6, "s"
	case a >= 1e3:
		unit, name = 1e3, "ms"
	case a == 0:
		return "0"
	}
	if step <= 0 {
		return strconv.FormatFloat(us/unit, 'g', 3, 64) + name
	}
	dec := min(6, max(0, int(math.Ceil(-math.Log10(step/unit)))))
	return strconv.FormatFloat(us/unit, 'f', dec, 64) + name
}

// axis is the times of the bar's columns, a label every 14 columns or so.
func (m Model) axis(w int) string {
	bw := m.barWidth()
	row := []rune(strings.Repeat(" ", m.labelWidth()+bw))
	col := m.colWidth()
	for c := 0; c < bw; c += 14 {
		label := []rune("╵" + m.rel(m.v0+float64(c)*col))
		if c+len(label) > bw {
			break
		}
		copy(row[m.labelWidth()+c:], label)
	}
	return m.opts.Styles.Muted.Render(ansi.Truncate(string(row), w, ""))
}

// cursorCol is the bar's column the cursor is in.
func (m Model) cursorCol() int {
	return min(m.barWidth()-1, max(0, int((m.cur-m.v0)/m.colWidth())))
}

// stripLines draws the strips in view: the label, then a cell per column,
// runs of one style rendered at once.
func (m Model) stripLines(w int) []string {
	st := &m.opts.Styles
	list := m.strips.List()
	src := m.drawn()
	cur := m.cursorCol()
	var out []string
	for i := m.top; i < len(list) && i < m.top+m.stripRows(); i++ {
		s := list[i]
		label := st.Muted.Render(pad(m.label(s, list), m.labelWidth()))
		if i == m.sel {
			label = st.Selected.Render(pad(m.label(s, list), m.labelWidth()-1)) + " "
		}
		var cells []timeline.Cell
		if d := src.Find(s); d != nil {
			cells = d.Columns(m.v0, m.v1, m.barWidth())
		} else {
			cells = make([]timeline.Cell, m.barWidth())
		}
		out = append(out, ansi.Truncate(label+m.bar(cells, cur), w, ""))
	}
	return out
}

// bar renders cells, the cursor's column reversed.
func (m Model) bar(cells []timeline.Cell, cur int) string {
	var b strings.Builder
	var run []rune
	key := -2
	flush := func() {
		if len(run) > 0 {
			b.WriteString(m.keyStyle(key).Render(string(run)))
			run = run[:0]
		}
	}
	for i, c := range cells {
		g, k := '·', -1
		if c.Busy > 0 {
			g, k = levels[min(len(levels)-1, int(c.Busy*float64(len(levels))))], int(c.Act)
		}
		if i == cur {
			flush()
			b.WriteString(m.keyStyle(k).Reverse(true).Render(string(g)))
			continue
		}
		if k != key {
			flush()
			key = k
		}
		run = append(run, g)
	}
	flush()
	return b.String()
}

// keyStyle is an activity's style; -1, idle, is muted.
func (m Model) keyStyle(k int) *lipgloss.Style {
	if k < 0 {
		return &m.opts.Styles.Muted
	}
	return m.actStyle(timeline.Activity(k))
}

func (m Model) actStyle(a timeline.Activity) *lipgloss.Style {
	st := &m.opts.Styles
	switch a {
	case timeline.ActComm:
		return &st.Info
	case timeline.ActMemory:
		return &st.Warn
	case timeline.ActSync:
		return &st.Crit
	}
	return &st.OK
}

// label names a strip: its rank where the trace names ranks or there are
// several sources, its device where there are several, its stream.
func (m Model) label(s *timeline.Strip, all []*timeline.Strip) string {
	ranks, devices := false, false
	for _, o := range all {
		ranks = ranks || o.Rank >= 0 || o.Src != s.Src || o.Proc != s.Proc
		devices = devices || (o.Src == s.Src && o.Proc == s.Proc && o.Device != s.Device)
	}
	var b strings.Builder
	if ranks {
		r := s.Rank
		if r < 0 {
			r = s.Src
		}
		fmt.Fprintf(&b, "r%d ", r)
	}
	if devices {
		fmt.Fprintf(&b, "g%d ", s.Device)
	}
	fmt.Fprintf(&b, "s%d", s.Stream)
	return b.String()
}
