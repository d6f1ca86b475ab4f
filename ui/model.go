// Package ui is gpuscope's terminal dashboard: a thin Bubble Tea router over
// panes that each own their state and render from snapshots. It never reads
// hardware: snapshots arrive on a channel and diagnosis is injected.
package ui

import (
	"maps"
	"os"
	"os/user"
	"slices"
	"strings"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Options configure the dashboard. Only Styles is required.
type Options struct {
	Styles themes.Styles
	// Keys remaps actions to keys (config.toml's [keys]; KeyActions names
	// them). Checked with CheckKeys first: a table it rejects is ignored.
	Keys map[string][]string
	// Tr is the interface's words, the run's one translator (ui/cli builds
	// it; nil: English).
	Tr *i18n.Tr
	// ProcSort is the process pane's sort column at start (config.toml's
	// sort: pid, gpu, gpu_mem, sm, cpu, rss, time; "" is gpu_mem), largest
	// first unless ProcSortReverse; ProcTree starts it as a tree.
	ProcSort        string
	ProcSortReverse bool
	ProcTree        bool
	// Hide are the panes hidden at start (config.toml's hide: PaneNames);
	// ComputeOnly starts the process pane without graphics-only processes.
	Hide        []string
	ComputeOnly bool
	// Playbook renders the rule's page in lang ("en", "zh") with GPU index
	// and PID filled in.
	Playbook    func(rule, lang string, gpu, pid int) string
	SetInterval func(time.Duration) // called on +/-
	Interval    time.Duration
	Badge       string           // "LIVE", "DEMO mixed", "REPLAY"
	Now         func() time.Time // injectable for golden tests
	// HistorySpan is how far back the charts reach (default historySpan).
	HistorySpan time.Duration
	// Window is the diagnosis window the node-balance line summarises
	// (default 120 s, diagnose.DefaultWindow).
	Window time.Duration
	// Rules is how many rules the diagnosis checks, for the all-clear line.
	Rules int
	// Record starts or stops a recording of the live stream (the r key); it
	// returns a line for the footer. nil: r is off (replay).
	Record func() (status string, on bool, err error)
	// RecordState says, on each snapshot, whether that recording still runs
	// and, if it stopped by itself (a failed write), why: the badge goes off
	// and the reason, naming the file, replaces the footer's status.
	RecordState func() (on bool, failure string)
	// Kill sends a signal to a process (syscall.Kill); nil: k/K are off.
	Kill func(pid int, sig syscall.Signal) error
	// ReadOnly removes the signal action (--readonly).
	ReadOnly bool
	// SelfPID is gpuscope's own PID, which k/K refuse (default os.Getpid()).
	SelfPID int
	// User is who runs gpuscope (default: the current user); Root lets k/K
	// signal other users' processes (default: uid 0).
	User string
	Root bool
	// Replay: the dashboard shows a recording (gpuscope replay); the help
	// overlay lists the timeline's keys (ReplayKeys).
	Replay bool
	// Bell rings the terminal's bell when a critical finding opens (--bell).
	Bell bool
	// Ring writes the bell (default: BEL to standard output, between the
	// renderer's frames; tests count the rings).
	Ring func()
}

const defaultWindow = diagnose.DefaultWindow

// focusArea is the pane that arrows move in.
type focusArea int

const (
	focusGPUs focusArea = iota
	focusFindings
	focusProcs
	focusCount
)

// frameMsg carries one frame from the collector.
type frameMsg diagnose.Frame

// sourceClosedMsg says the snapshot channel closed (replay ended).
type sourceClosedMsg struct{}

// Model is the root: it routes messages to panes and composes their views.
// Panes are pointers shared between copies of the Model, as Bubble Tea only
// ever uses the latest one.
type Model struct {
	c      *common
	w, h   int
	layout Layout
	// pages are the open pages over the main panes, newest on top
	// (pages.go): the top one takes keys and is drawn.
	pages *pages

	header   *headerPane
	gpus     *gpuPane
	findings *findingsPane
	side     *sidePane
	procs    *procPane
	host     *hostPane
	detail   *detailPane
	gdetail  *gpuDetailPane
	pview    *procViewPane
	topo     *topoPane
}

var _ tea.Model = Model{}

// New builds the dashboard.
func New(opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Window <= 0 {
		opts.Window = defaultWindow
	}
	if opts.Interval <= 0 {
		opts.Interval = time.Second
	}
	if opts.SelfPID == 0 {
		opts.SelfPID = os.Getpid()
	}
	if opts.User == "" {
		if u, err := user.Current(); err == nil {
			opts.User = u.Username
		}
		opts.Root = opts.Root || os.Geteuid() == 0
	}
	c := &common{env: env{opts: opts, st: &opts.Styles, keys: defaultKeyMap()}, data: data{hist: newHistory(opts.HistorySpan, opts.Window)},
		viewState: viewState{interval: opts.Interval, hide: hiddenFrom(opts.Hide), computeOnly: opts.ComputeOnly}}
	if len(opts.Keys) > 0 {
		km := defaultKeyMap()
		if km.remap(maps.Clone(opts.Keys)) == nil {
			c.keys = km
		}
	}
	c.tr = i18n.OrEnglish(opts.Tr)
	localizeHelp(&c.keys, c.tr)
	c.hints = newFooterHints(&c.keys, c.tr)
	return Model{
		c: c, pages: &pages{}, header: &headerPane{c: c}, gpus: &gpuPane{c: c}, findings: &findingsPane{c: c},
		side: &sidePane{c: c}, procs: newProcPane(c), host: &hostPane{c: c}, detail: newDetailPane(c),
		gdetail: newGPUDetailPane(c), pview: newProcViewPane(c), topo: &topoPane{c: c},
	}
}

// Init starts nothing: frames come from the collector (diagnose/pipeline)
// through Feed, each a snapshot and the diagnosis of that moment. The
// dashboard diagnoses nothing itself.
func (m Model) Init() tea.Cmd { return nil }

// Update routes: sizes and data to every pane, keys to keys.go.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.resize(msg.Width, msg.Height), nil
	case frameMsg:
		if !m.c.paused { // paused: keep showing the last data
			m = m.Push(diagnose.Frame(msg))
		}
		if m.c.newCritical && m.c.opts.Bell {
			m.c.newCritical = false
			return m, m.ring
		}
		return m, nil
	case sourceClosedMsg:
		m.c.sourceClosed = true
		m.header.invalidate()
		return m, nil
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg), nil
	}
	return m, nil
}

// Push shows one frame synchronously (tests, replay). The returned Model
// shares history with m. The findings and side panes re-render only when
// the diagnosis changed (at most once a second), not on every snapshot.
func (m Model) Push(f diagnose.Frame) Model {
	c := m.c
	s := f.Snapshot
	// The one boundary where outside strings (command lines, user and host
	// names, problems) enter the screen: control characters are escaped.
	// Problems keep only their first line (a recovered panic's stack is for
	// logs; the footer shows one line), so no newline is escaped into it.
	s.Problems = firstLines(s.Problems)
	hostChanged := c.clean(&s)
	if n := len(s.Problems); n > 0 {
		c.problem, c.problemMore, c.problemAt = s.Problems[n-1], n-1, s.Time
	}
	first := c.hist.len() == 0
	c.hist.push(s)
	c.hours.Add(&s)
	c.window = c.hist.since(c.opts.Window)
	diagChanged := f.Diagnosis != c.diagSrc || f.Diagnosis == nil
	if diagChanged {
		// Findings, levels and checklists quote command lines too.
		c.diagSrc, c.diag = f.Diagnosis, safe.CleanWith(types(&c.diagTypes), f.Diagnosis)
		prev := c.findings
		c.findings = nil
		if c.diag != nil {
			// A copy: the diagnosis is shared with the other sinks.
			c.findings = slices.Clone(c.diag.Findings)
			diagnose.RankByGPU(c.findings)
		}
		c.newCritical = c.newCritical || criticalOpened(prev, c.findings)
	}
	m.findings.follow()
	gpusChanged := len(s.GPUs) != c.gpuCount || migRows(&s) != c.migRows
	if gpusChanged {
		c.gpuCount, c.migRows = len(s.GPUs), migRows(&s)
		m = m.resize(m.w, m.h)
	}
	m.clampCursors()
	if diagChanged || gpusChanged || first {
		m.refreshSide()
		m.findings.invalidate()
	}
	m.checkRecording()
	m.header.onData(&s)
	m.gpus.invalidate()
	m.procs.invalidate()
	if hostChanged || first {
		m.host.invalidate()
	}
	if m.pages.isOpen(pageFinding) {
		m.detail.refresh()
	}
	if m.pages.isOpen(pageGPU) {
		m.gdetail.onData(s.Time)
	}
	if m.pages.isOpen(pageProc) {
		m.pview.refresh()
	}
	return m
}

// clean is safe.Clean(s), with a host reading already escaped for an
// earlier snapshot reused: at --interval 100ms ten snapshots share one
// (sampler.HostEvery), and escaping its processes was most of Clean's
// cost (docs/benchmarks.md, "The dashboard's cost while it watches: the
// width of a line", 2026-12-07). It says whether the host reading is new.
func (c *common) clean(s *sampler.Snapshot) bool {
	src := s.Host
	shared := src != nil && src == c.hostSrc
	if shared {
		s.Host = nil
	}
	*s = safe.CleanWith(types(&c.snapTypes), *s)
	if shared {
		s.Host = c.host
		return false
	}
	c.hostSrc, c.host = src, s.Host
	return true
}

// types is *ts, made when first asked: what safe.CleanWith learnt of the
// snapshots' (or the diagnoses') types, and the parts of the one before
// (a Types remembers one stream: the snapshots and the diagnoses keep one
// each).
func types(ts **safe.Types) *safe.Types {
	if *ts == nil {
		*ts = safe.NewTypes()
	}
	return *ts
}

// Reset shows frames in place of everything shown so far (a replay's seek),
// keeping what the user chose: focus, selections, sort, filter, open pages,
// the interval. The returned Model shares its panes with m.
func (m Model) Reset(frames []diagnose.Frame) Model {
	m.c.data = data{hist: newHistory(m.c.opts.HistorySpan, m.c.opts.Window)}
	for _, f := range frames {
		m = m.Push(f)
	}
	m = m.resize(m.w, m.h) // none pushed, or the same GPUs as before: still laid out anew
	m.invalidateAll()
	return m
}

// ring is the Cmd that rings the bell once.
func (m Model) ring() tea.Msg {
	if r := m.c.opts.Ring; r != nil {
		r()
	} else {
		_, _ = os.Stdout.WriteString("\a")
	}
	return nil
}

// criticalOpened says whether now has a critical finding that prev had
// not (as critical).
func criticalOpened(prev, now []diagnose.Finding) bool {
	for _, f := range now {
		if f.Severity == diagnose.Critical && !slices.ContainsFunc(prev, func(p diagnose.Finding) bool {
			return p.Severity == diagnose.Critical && p.Rule == f.Rule && p.GPU == f.GPU && p.PID == f.PID
		}) {
			return true
		}
	}
	return false
}

// firstLines cuts each string at its first newline, copying only if needed.
func firstLines(ss []string) []string {
	var out []string
	for i, p := range ss {
		if j := strings.IndexByte(p, '\n'); j >= 0 {
			if out == nil {
				out = slices.Clone(ss)
			}
			out[i] = p[:j]
		}
	}
	if out == nil {
		return ss
	}
	return out
}

// checkRecording turns the badge off when the recording failed on its own.
func (m Model) checkRecording() {
	c := m.c
	if !c.recording || c.opts.RecordState == nil {
		return
	}
	if on, failure := c.opts.RecordState(); !on {
		c.recording = false
		if failure != "" {
			c.status = failure
		}
	}
}

// refreshSide picks the selected GPU's three levels and checklist from the
// diagnosis (computed by the collector with the findings).
func (m Model) refreshSide() {
	c := m.c
	c.levels, c.hasLevels, c.steps = diagnose.Levels{}, false, nil
	if d := c.diag; d != nil {
		if c.selGPU < len(d.Levels) && c.selGPU < c.gpuCount {
			c.levels, c.hasLevels = d.Levels[c.selGPU], true
		}
		if c.selGPU < len(d.Checklists) {
			c.steps = d.Checklists[c.selGPU]
		}
	}
	m.side.invalidate()
}

func (m Model) resize(w, h int) Model {
	m.w, m.h = w, h
	m.layout = ComputeLayoutHidden(w, h, m.c.gpuCount, m.c.migRows, m.c.hide)
	m.gpus.lines = m.layout.GPULines
	for _, sp := range m.sizedPanes() {
		sp.p.SetSize(sp.w, sp.h)
	}
	m.refreshPages()
	if m.c != nil && !m.shown(m.c.focus) { // its pane no longer fits: back to the GPUs
		m.c.focus = focusGPUs
		m.procs.filtering = false
	}
	return m
}

// sizedPane is a pane with the size the layout gives it.
type sizedPane struct {
	p    pane
	w, h int
}

// sizedPanes are every pane with its size (soft-serve's components in a
// slice): the main screen's from the layout, the pages the screen under the
// header and above the footer.
func (m Model) sizedPanes() []sizedPane {
	l, pageH := m.layout, max(0, m.h-2)
	return []sizedPane{
		{m.header, m.w, 1}, {m.gpus, l.GPUs.W, l.GPUs.H}, {m.findings, l.Findings.W, l.Findings.H},
		{m.side, l.Side.W, l.Side.H}, {m.procs, l.Procs.W, l.Procs.H}, {m.host, l.Host.W, l.Host.H},
		{m.detail, m.w, pageH}, {m.gdetail, m.w, pageH}, {m.pview, m.w, pageH}, {m.topo, m.w, pageH},
	}
}

// clampCursors keeps the GPU and finding cursors on a row that exists
// after new data; drawing reads the cursors and never moves them. The
// process cursor is clamped where its rows are gathered (procPane.move,
// selected): gathering them here too would sort the table twice a frame.
func (m Model) clampCursors() {
	c := m.c
	m.gpus.cursor = min(m.gpus.cursor, max(0, c.gpuCount-1))
	m.findings.cursor = min(m.findings.cursor, max(0, len(c.findings)-1))
}

// refreshPages redraws the open pages at a new size.
func (m Model) refreshPages() {
	if m.pages == nil {
		return
	}
	if m.pages.isOpen(pageFinding) {
		m.detail.refresh()
	}
	if m.pages.isOpen(pageGPU) {
		m.gdetail.refresh()
	}
	if m.pages.isOpen(pageProc) {
		m.pview.refresh()
	}
}

// invalidateAll makes the main screen's panes draw afresh (the pages draw
// from their own viewports).
func (m Model) invalidateAll() {
	for _, p := range []interface{ invalidate() }{m.header, m.gpus, m.findings, m.side, m.procs, m.host} {
		p.invalidate()
	}
}

// ReplayKeys are the timeline's keys in force (defaults, or as [keys]
// remapped them), for ui/replay to match.
func (m Model) ReplayKeys() ReplayKeys { return m.c.keys.Replay }
