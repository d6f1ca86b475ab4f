package ui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/muesli/termenv"
)

// common is the state every pane reads (soft-serve's common.Common), in
// three parts: what the run was given (env), what the frames brought (data:
// Model.Reset replaces it) and what the user chose (viewState: kept across
// a Reset, so a replay's seek keeps focus, selection and sort).
type common struct {
	env
	data
	viewState
}

// env is what a dashboard is given and never changes.
type env struct {
	opts Options
	st   *themes.Styles
	// keys is the key map the handlers and the help overlay share.
	keys keyMap
	// hints are the footer's key hints, spelled from keys.
	hints footerHints
	// tr holds the interface's words in the chosen language (ui/i18n).
	tr *i18n.Tr
	// hintsDrawn is the footer's key hints as last fitted (fitHints).
	hintsDrawn *drawnHints
	// sideBySide is the findings and side panes as last joined.
	sideBySide drawnJoin
	// lineStyles are the theme's styles as sequences (styled).
	lineStyles map[*lipgloss.Style]*lineStyle
	// gpuCountSaid is the last GPU count said (gpuCountText).
	gpuCountSaid struct {
		n    int
		text string
	}
	// balanceSaid is the node balance's last verdict and its words
	// (balanceSummary).
	balanceSaid struct {
		v           balanceVerdict
		full, short string
	}
}

// data is what the frames brought: the history and the newest diagnosis.
type data struct {
	hist   *history
	window []sampler.Snapshot // the newest Options.Window of hist (node balance)
	// balanceSums is the node balance's sums over window (balance.go).
	balanceSums balanceSums
	diag        *diagnose.Diagnosis // the collector's, escaped for the screen; nil before one
	diagSrc     *diagnose.Diagnosis // the collector's as received, to tell a new one
	findings    []diagnose.Finding  // diag's, in diagnose.RankByGPU's order
	levels      diagnose.Levels
	hasLevels   bool
	steps       []diagnose.Step
	hours       diagnose.Hours // GPU time per job since the first frame (the GPU page)
	// hostSrc is the newest host reading as received, host the same
	// escaped: faster ticks share one reading (sampler.HostEvery), which
	// is then escaped and drawn once.
	hostSrc, host *sampler.Host
	// snapTypes, diagTypes are safe.CleanWith's memos (types).
	snapTypes, diagTypes *safe.Types
	gpuCount             int
	migRows              int // GPU pane lines the MIG instances want (see migRows)
	// sourceClosed: the frames ended (a replay reached its end).
	sourceClosed bool
	// problem is the newest problem line and when it was said; the footer
	// keeps it for problemHold, since many are said once (a driver without
	// a function, a GPU lost) and one tick is too short to read.
	problem     string
	problemMore int
	problemAt   time.Time
	// newCritical: a critical finding opened since the bell last rang.
	newCritical bool
}

// viewState is what the user chose on the screen.
type viewState struct {
	selGPU   int // the GPU the side pane describes
	focus    focusArea
	paused   bool
	interval time.Duration
	// recording is set while the r key's recording runs (header badge).
	recording bool
	// hide are the panes hidden (F H P, config.toml's hide); computeOnly
	// leaves graphics-only processes out of the process pane (c).
	hide        Hidden
	computeOnly bool
	// status is a one-line outcome (a signal sent or refused) shown in the
	// footer until the next key.
	status string
}

// latest is the newest snapshot, or nil before the first one.
func (c *common) latest() *sampler.Snapshot { return c.hist.last() }

// now is the data's time (so a replay shows its own clock), else the wall clock.
func (c *common) now() time.Time {
	if s := c.latest(); s != nil && !s.Time.IsZero() {
		return s.Time
	}
	return c.opts.Now()
}

// cached is embedded by panes: a size and the last rendering, redone only
// after new data, a resize or a key (the View budget, < 2 ms: docs/benchmarks.md).
type cached struct {
	w, h  int
	out   string
	valid bool
}

func (p *cached) SetSize(w, h int) {
	if p.w != w || p.h != h {
		p.w, p.h, p.valid = w, h, false
	}
}

func (p *cached) invalidate() { p.valid = false }

// Update is the pane interface's: panes that take no messages embed this.
func (p *cached) Update(tea.Msg) {}

// view returns the cached rendering, calling render when stale.
func (p *cached) view(render func() []string) string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	if !p.valid {
		p.out = fitBlock(render(), p.w, p.h, false)
		p.valid = true
	}
	return p.out
}

// fitBlock makes lines exactly h lines of at most w cells (padded to w when
// pad is set, for side-by-side joins).
func fitBlock(lines []string, w, h int, pad bool) string {
	var b strings.Builder
	// Sized once: grown as it was written, the pane's lines were copied
	// ~log2(its size) times, on every snapshot at --interval 100ms.
	n, shown := max(h, 0), lines[:min(max(h, 0), len(lines))]
	for _, l := range shown {
		n += len(l)
	}
	b.Grow(n)
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		if pad {
			b.WriteString(padRight(line, w))
		} else {
			b.WriteString(truncate(line, w))
		}
	}
	return b.String()
}

// joinColumns puts left (width lw) and right side by side, one space apart.
func joinColumns(left string, lw int, right string) string {
	ll := strings.Split(left, "\n")
	rl := strings.Split(right, "\n")
	var b strings.Builder
	for i := 0; i < max(len(ll), len(rl)); i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		l, r := "", ""
		if i < len(ll) {
			l = ll[i]
		}
		if i < len(rl) {
			r = rl[i]
		}
		b.WriteString(padRight(l, lw))
		b.WriteByte(' ')
		b.WriteString(r)
	}
	return b.String()
}

// drawnJoin is two panes side by side as last joined: the findings and
// the side pane change once a second at most, and were joined anew on
// every snapshot at --interval 100ms (docs/benchmarks.md, "The dashboard
// at 100 ms, again"). A pane drawn again is a new string; one kept is the
// same string, compared at once.
type drawnJoin struct {
	left, right, out string
	lw               int
}

// join is joinColumns(left, lw, right), reused while they are the same.
func (d *drawnJoin) join(left string, lw int, right string) string {
	if d.out == "" || d.lw != lw || d.left != left || d.right != right {
		*d = drawnJoin{left: left, right: right, lw: lw, out: joinColumns(left, lw, right)}
	}
	return d.out
}

// title draws a pane's title rule: "─ GPUs · 8 × H200 ─────────".
func title(st *themes.Styles, name, info string, focused bool, w int) string {
	ts := st.Title
	if focused {
		ts = st.TitleFocused
		name = "▸ " + name
	}
	s := st.Border.Render("─ ") + ts.Render(name)
	if info != "" {
		s += st.Muted.Render(" · " + info)
	}
	s += " "
	if n := w - cellWidth(s); n > 0 {
		s += st.Border.Render(strings.Repeat("─", n))
	}
	return truncate(s, w)
}

// drawnTitle is a pane's title line as last drawn: the panes drawn on every
// snapshot (GPUs, processes) mostly show the same title, and lipgloss styles
// each of its runes anew (docs/benchmarks.md, "The dashboard at 100 ms").
// The styles are the run's, so the arguments alone decide the line.
type drawnTitle struct {
	name, info string
	focused    bool
	w          int
	out        string
}

// title is title(st, name, info, focused, w), reused while they are the same.
func (d *drawnTitle) title(st *themes.Styles, name, info string, focused bool, w int) string {
	if d.out == "" || d.name != name || d.info != info || d.focused != focused || d.w != w {
		*d = drawnTitle{name: name, info: info, focused: focused, w: w, out: title(st, name, info, focused, w)}
	}
	return d.out
}

// cursor marks the selected row in a way that survives no-colour terminals.
func cursor(st *themes.Styles, selected, focused bool, line string, w int) string {
	if !selected {
		return "  " + line
	}
	if !focused {
		return "› " + line
	}
	return st.Selected.Render(padRight("› "+ansi.Strip(line), w))
}

// cursor is cursor(c.st, …), the focused row styled by wrapping (lineStyle).
func (c *common) cursor(selected, focused bool, line string, w int) string {
	if !selected || !focused {
		return cursor(c.st, selected, focused, line, w)
	}
	return c.styled(&c.st.Selected, padRight("› "+ansi.Strip(line), w))
}

// lineStyle is a style's Render of one line as the two strings lipgloss
// puts around it, for a style without a width, border, per-space styling,
// maximum width or transform: its Render then wraps each line in the
// style's sequence and a reset (and any padding, margin or SetString text,
// the same on every line), after measuring the line rune by rune
// (getLines). The GPU pane's selected row was rendered so ten times a
// second at --interval 100ms (docs/benchmarks.md, "The dashboard at 100 ms").
type lineStyle struct {
	pre, post string
	ok        bool
	profile   termenv.Profile // the colour profile the sequences are for
}

func newLineStyle(s lipgloss.Style) *lineStyle {
	l := &lineStyle{profile: lipgloss.ColorProfile()}
	if s.GetMaxWidth() != 0 || s.GetTransform() != nil {
		return l
	}
	// Two lines of other widths, one with a space, drawn as one wrapping:
	// a width, a border or per-space styling would draw them otherwise.
	l.pre, l.post, l.ok = strings.Cut(s.Render("x"), "x")
	l.ok = l.ok && s.Render("ab c") == l.pre+"ab c"+l.post
	return l
}

// render is s.Render(line), s the style l was made of.
func (l *lineStyle) render(s lipgloss.Style, line string) string {
	if !l.ok || line == "" || strings.ContainsAny(line, "\t\r\n") {
		return s.Render(line)
	}
	return l.pre + line + l.post
}

// place centres text in a w×h box, wrapping and cutting so it never
// overflows (the too-small screen can be 1×1).
func place(text string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	wrapped := strings.Split(ansi.Wrap(text, w, " "), "\n")
	if len(wrapped) > h {
		wrapped = wrapped[:h]
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, fitBlock(wrapped, w, len(wrapped), false))
}
