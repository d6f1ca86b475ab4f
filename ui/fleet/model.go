package fleet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Options wire the fleet view to its data; main builds the functions over
// a promsource.Source.
type Options struct {
	Styles   themes.Styles
	Interval time.Duration // refresh period
	Load     func(ctx context.Context) (View, error)
	// History returns a node's snapshots from from to now.
	History func(ctx context.Context, key fleetsnap.NodeKey, from time.Time) ([]sampler.Snapshot, error)
	// Dashboard returns the options of a node's dashboard.
	Dashboard func(badge string) ui.Options
	// Tr is the view's words, the run's one translator (ui/cli builds it).
	Tr *i18n.Tr
	// Badge starts an open node's badge, before its name: where its
	// data comes from; PROM when "".
	Badge string
	// Direct: the nodes are scraped (`--nodes`), no server is queried.
	Direct bool
}

// nodeHistory is how far back a node's dashboard starts: the diagnosis
// window and a minute of sparkline.
const nodeHistory = diagnose.DefaultWindow + time.Minute

// Model is the fleet view; with a node open, that node's dashboard.
type Model struct {
	opts   Options
	view   View
	err    error
	loaded bool
	cursor int // index into the rows shown (order.rows)
	w, h   int
	node   *nodeView
	order  order // s/S sort, / filter (order.go)
	words  words // the view's language (lang.go)
}

// nodeView is an open node: the ordinary dashboard fed from Prometheus.
type nodeView struct {
	key  fleetsnap.NodeKey
	name string
	dash tea.Model
	feed *nodeFeed
}

// nodeFeed diagnoses an open node's series where it is fetched, in the
// fetch command, so Update only pushes frames: the node's own diagnosis, as
// its dashboard would make it from the same series (one Tracker, at most
// once a second). Only the one fetch in flight touches it: each fetch is
// scheduled by the answer of the one before.
type nodeFeed struct {
	tracker *diagnose.Tracker
	last    time.Time // the newest snapshot diagnosed
}

type loadedMsg struct {
	v   View
	err error
}
type refreshMsg struct{}
type nodeMsg struct {
	key    fleetsnap.NodeKey
	frames []diagnose.Frame // the snapshots not seen before, diagnosed
	err    error
	feed   *nodeFeed
	from   time.Time // what the fetch asked from
	first  bool
}
type nodeTickMsg struct {
	key   fleetsnap.NodeKey
	since time.Time // just after the newest snapshot the dashboard has
}

// New builds the fleet view.
func New(opts Options) Model {
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	if opts.Badge == "" {
		opts.Badge = "PROM"
	}
	return Model{opts: opts, order: newOrder(), words: words{i18n.OrEnglish(opts.Tr)}}
}

// Init loads the fleet.
func (m Model) Init() tea.Cmd { return m.load() }

func (m Model) load() tea.Cmd {
	return func() tea.Msg {
		v, err := m.opts.Load(context.Background())
		return loadedMsg{v, err}
	}
}

// openNode fetches a node's history and diagnoses it with a new feed.
func (m Model) openNode(key fleetsnap.NodeKey) tea.Cmd {
	return m.fetchNode(key, &nodeFeed{tracker: diagnose.NewViewTracker(diagnose.Options{})}, time.Now().Add(-nodeHistory), true)
}

// fetchNode asks for the node's series from `from` on and diagnoses what
// is newer than the feed has seen.
func (m Model) fetchNode(key fleetsnap.NodeKey, feed *nodeFeed, from time.Time, first bool) tea.Cmd {
	return func() tea.Msg {
		snaps, err := m.opts.History(context.Background(), key, from)
		msg := nodeMsg{key: key, err: err, feed: feed, from: from, first: first}
		for _, s := range snaps {
			if s.Time.After(feed.last) {
				msg.frames = append(msg.frames, feed.tracker.Observe(s))
				feed.last = s.Time
			}
		}
		return msg
	}
}

// Update routes messages to the fleet or, with a node open, its dashboard.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		if m.node != nil {
			var cmd tea.Cmd
			m.node.dash, cmd = m.node.dash.Update(msg)
			return m, cmd
		}
		return m, nil
	case loadedMsg:
		m.loaded, m.err = true, msg.err
		if msg.err == nil {
			m.view = msg.v
			m.cursor = min(m.cursor, max(len(m.rows())-1, 0))
		}
		return m, tea.Tick(m.opts.Interval, func(time.Time) tea.Msg { return refreshMsg{} })
	case refreshMsg:
		if m.node != nil {
			return m, nil // the fleet refreshes again when the node closes
		}
		return m, m.load()
	case nodeMsg:
		return m.nodeData(msg)
	case nodeTickMsg:
		if m.node == nil || m.node.key != msg.key {
			return m, nil
		}
		return m, m.fetchNode(msg.key, m.node.feed, msg.since, false)
	case tea.KeyMsg:
		return m.key(msg)
	}
	if m.node != nil {
		var cmd tea.Cmd
		m.node.dash, cmd = m.node.dash.Update(msg)
		return m, cmd
	}
	return m, nil
}

// rows are the nodes shown, in the chosen order, through the filter.
func (m Model) rows() []*fleetsnap.Node { return m.order.rows(m.view.Fleet.Nodes) }

func (m Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	km := m.order.keys
	if m.node != nil {
		if key.Matches(k, km.Back) {
			m.node = nil
			return m, m.load()
		}
		var cmd tea.Cmd
		m.node.dash, cmd = m.node.dash.Update(k)
		return m, cmd
	}
	if key.Matches(k, km.ForceQuit) || (!m.order.filtering && key.Matches(k, km.Quit)) {
		return m, tea.Quit
	}
	if m.order.key(k) {
		m.cursor = 0 // a new order or filter: back to its first row
		return m, nil
	}
	rows := m.rows()
	switch {
	case key.Matches(k, km.Up):
		m.cursor = max(m.cursor-1, 0)
	case key.Matches(k, km.Down):
		m.cursor = min(m.cursor+1, max(len(rows)-1, 0))
	case key.Matches(k, km.Enter):
		if m.cursor < len(rows) {
			return m, m.openNode(rows[m.cursor].Key)
		}
	}
	return m, nil
}

// nodeData opens a node's dashboard on its first history, and feeds it
// the frames each later fetch brings.
func (m Model) nodeData(msg nodeMsg) (tea.Model, tea.Cmd) {
	if msg.first {
		if msg.err != nil || len(msg.frames) == 0 {
			m.err = fmt.Errorf("node %s: no GPU series in the last %s (%v)", msg.key.Instance, nodeHistory, msg.err)
			return m, nil
		}
		name := msg.frames[len(msg.frames)-1].Snapshot.Node.Hostname
		dash := ui.New(m.opts.Dashboard(m.opts.Badge + " " + name))
		for _, f := range msg.frames {
			dash = dash.Push(f)
		}
		m.node = &nodeView{key: msg.key, name: name, dash: dash, feed: msg.feed}
		var cmd tea.Cmd
		m.node.dash, cmd = m.node.dash.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h})
		return m, tea.Batch(cmd, m.nodeTick(msg))
	}
	if m.node == nil || m.node.key != msg.key || m.node.feed != msg.feed {
		return m, nil // an answer for a node closed since
	}
	if d, ok := m.node.dash.(ui.Model); ok {
		for _, f := range msg.frames {
			d = d.Push(f)
		}
		m.node.dash = d
	}
	return m, m.nodeTick(msg)
}

// nodeTick schedules the next fetch after the newest snapshot seen.
func (m Model) nodeTick(msg nodeMsg) tea.Cmd {
	since := msg.from
	if n := len(msg.frames); n > 0 {
		since = msg.frames[n-1].Snapshot.Time.Add(time.Millisecond)
	}
	return tea.Tick(m.opts.Interval, func(time.Time) tea.Msg { return nodeTickMsg{msg.key, since} })
}

// View draws the fleet, or the open node's dashboard.
func (m Model) View() string {
	if m.node != nil {
		return m.node.dash.View()
	}
	st := m.opts.Styles
	var b strings.Builder
	l := m.words
	b.WriteString(st.Header.Render("gpuscope fleet · "+m.view.Source) + "  " + st.Muted.Render(time.Now().Format("15:04:05")) + "\n")
	switch {
	case m.err != nil:
		b.WriteString(st.Crit.Render(l.t("error")+m.err.Error()) + "\n")
	case !m.loaded:
		if m.opts.Direct {
			b.WriteString(st.Muted.Render(l.t("scraping")) + "\n")
		} else {
			b.WriteString(st.Muted.Render(l.t("querying")) + "\n")
		}
	}
	if !m.loaded {
		return b.String()
	}
	b.WriteString(l.summary(m.view) + "\n")
	if s := l.span(m.view.Fleet); s != "" {
		b.WriteString(st.Warn.Render(s) + "\n")
	}
	b.WriteString(m.filterLine())
	// The names take the room the row has, leaving the findings 20 cells.
	nw := nameWidth(m.view.Fleet, m.w-2-rowFixed-20)
	b.WriteString(st.Bold.Render("  "+l.header(nw)) + "\n")
	nodes := m.rows()
	if len(nodes) == 0 && m.order.filter.Value() != "" {
		b.WriteString(st.Muted.Render("  "+l.t("no_match")) + "\n")
	}
	fit := max(m.h-14, 3)
	start := max(0, min(m.cursor-fit/2, len(nodes)-fit))
	for i := start; i < min(len(nodes), start+fit); i++ {
		n := *nodes[i]
		line := m.colourRow(n, nw)
		if i == m.cursor {
			line = "› " + line
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n" + st.Bold.Render(l.t("findings")) + "\n")
	for _, f := range m.view.Findings {
		b.WriteString(ui.SeverityMark(&m.opts.Styles, f.Severity) + " " + l.title(f) + ": " + strings.Join(f.Nodes, ", ") + "\n")
	}
	if m.cursor < len(nodes) {
		n := *nodes[m.cursor]
		r := m.view.Nodes[n.Key]
		for _, f := range r.Findings {
			b.WriteString(fmt.Sprintf("%s %s %s %s (%s)\n", ui.SeverityMark(&m.opts.Styles, f.Severity), n.Name, l.where(f.GPU), f.Rule, l.from(r.From)))
		}
		if len(r.NeedsHost) > 0 {
			b.WriteString(st.Muted.Render(n.Name+": "+l.t("needs_host_tui", "Rules", strings.Join(r.NeedsHost, ", "))) + "\n")
		}
	}
	hints := l.t("hints", "Sort", m.order.labelIn(l), "Every", m.opts.Interval.String())
	if m.w > 0 {
		hints = ansi.Truncate(hints, m.w, "…")
	}
	b.WriteString(st.Muted.Render(hints) + "\n")
	return b.String()
}

// colourRow is Row with each GPU cell coloured: busy green, idle while
// holding memory amber, idle and empty grey, down red.
func (m Model) colourRow(n fleetsnap.Node, nw int) string {
	plain := m.words.row(n, nw)
	st := m.opts.Styles
	var cells strings.Builder
	for _, g := range n.GPUs {
		cells.WriteString(cellStyle(st, g, n.Up).Render(string(Cell(g, n.Up))))
	}
	// The cells start after the name column; the rest of the row is plain.
	runes := []rune(plain)
	k := len([]rune(nameCell(n.Name, nw))) // a CJK name: fewer runes than cells
	rest := string(runes[min(k+1+len(n.GPUs), len(runes)):])
	return string(runes[:min(k+1, len(runes))]) + cells.String() + rest
}

func cellStyle(st themes.Styles, g fleetsnap.GPU, up bool) lipgloss.Style {
	switch {
	case !up:
		return st.Crit
	case !g.Util.OK:
		return st.Muted
	case g.Util.V >= fleetdiag.BusyUtil:
		return st.OK
	case g.MemTotal.OK && g.MemUsed.Or(0) >= 0.1*g.MemTotal.V:
		return st.Warn
	}
	return st.Muted
}
