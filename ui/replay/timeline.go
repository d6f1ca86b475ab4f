package replay

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// minBar is the narrowest progress bar worth drawing (ten
// cells still show position to 10%); text is dropped before the bar shrinks
// below it.
const minBar = 10

// View is the dashboard one line shorter, over the timeline line.
func (m Model) View() string {
	switch {
	case m.w <= 0 || m.h <= 0:
		return ""
	case m.h == 1:
		return m.timelineLine(m.w)
	}
	out := m.inner.View()
	if m.warnRows() > 0 {
		out += "\n" + m.warningLine(m.w)
	}
	if m.errRows() > 0 {
		out += "\n" + m.errorLine(m.w)
	}
	return out + "\n" + m.timelineLine(m.w)
}

// warningLine is the first warning, with how many more, in w cells.
func (m Model) warningLine(w int) string {
	st := m.opts.UI.Styles
	ws := m.opts.Warnings
	text := ws[0]
	if len(ws) > 1 {
		text += m.say("replay.more_warnings", map[string]any{"Count": len(ws) - 1})
	}
	return ansi.Truncate(st.Warn.Render("▲ ")+text+st.Muted.Render(m.say("replay.any_key_hides", nil)), w, "…")
}

// timelineLine is
//
//	▶ 2× ━━━━━━━━●──────── 14:03:27 / 14:13:27 (snapshot 361/601) · file.jsonl
//
// in at most w cells: the file name, then the snapshot count, then the end
// time go before the bar shrinks below minBar.
func (m Model) timelineLine(w int) string {
	line, _, _ := m.timelineParts(w)
	return line
}

// timelineParts is the timeline line with the bar's first column and width.
func (m Model) timelineParts(w int) (line string, barAt, barW int) {
	st := m.opts.UI.Styles
	state := "▶"
	switch {
	case m.playing:
	case m.atEnd():
		state = m.say("replay.end", nil)
	default:
		state = "⏸"
	}
	head := st.Key.Render(state) + " " + st.Bold.Render(fmtSpeed(m.Speed())) + " "
	now, end := m.src.Time(m.cursor), m.src.Time(m.src.Len()-1)
	layout := "15:04:05"
	if y, mo, d := m.src.Time(0).Date(); y != end.Year() || mo != end.Month() || d != end.Day() {
		layout = "01-02 15:04:05"
	}
	times := now.Format(layout) + " / " + end.Format(layout)
	count := m.say("replay.snapshot", map[string]any{"At": m.cursor + 1, "Of": m.src.Len()})
	room := w - ansi.StringWidth(head)
	load := m.loadingText() // kept longest: it says why the bar is not full
	tails := []string{" " + times + count + load, " " + times + load, " " + now.Format(layout) + load, load, ""}
	if m.opts.Name != "" {
		// The name is cut rather than dropped while 8 cells of it fit.
		nameRoom := room - minBar - ansi.StringWidth(tails[0]+" · ")
		if nameRoom >= 8 {
			tails = append([]string{tails[0] + " · " + ansi.Truncate(m.opts.Name, nameRoom, "…")}, tails...)
		}
	}
	tail := ""
	for _, t := range tails {
		if room-ansi.StringWidth(t) >= minBar {
			tail = t
			break
		}
	}
	barW = max(1, room-ansi.StringWidth(tail))
	line = head + m.bar(barW) + st.Muted.Render(tail)
	return ansi.Truncate(line, w, ""), ansi.StringWidth(head), barW
}

// clickBar seeks to the point of the bar under a left click on column x
// (and pauses, as a step does).
func (m Model) clickBar(x int) Model {
	_, at, n := m.timelineParts(m.w)
	if x < at || x >= at+n || n < 2 {
		return m
	}
	m.playing = false
	m.gen++
	// Past what is loaded, the seek stops at its last snapshot.
	span := m.loadedCells(n)
	if x-at >= span-1 {
		return m.seek(m.src.Len() - 1)
	}
	return m.seek(int(float64(x-at)/float64(span-1)*float64(m.src.Len()-1) + 0.5))
}

// bar is the progress bar, n cells: done ━, the cursor ●, to come ─, and
// while loading, not read yet ┄ (its share of the input's bytes).
func (m Model) bar(n int) string {
	st := m.opts.UI.Styles
	span := m.loadedCells(n)
	pos := 0
	if m.src.Len() > 1 {
		pos = int(float64(m.cursor)/float64(m.src.Len()-1)*float64(span-1) + 0.5)
	}
	out := st.Accent.Render(strings.Repeat("━", pos)+"●") + st.Border.Render(strings.Repeat("─", span-1-pos))
	if n > span {
		out += st.Muted.Render(strings.Repeat("┄", n-span))
	}
	return out
}

// fmtSpeed is "0.5×", "2×".
func fmtSpeed(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + "×" }

// Interval is the recording's usual gap between snapshots.
func (m Model) Interval() time.Duration { return m.interval }
