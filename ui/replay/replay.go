// Package replay is `gpuscope replay`: the dashboard (ui.Model, wrapped, not
// changed) over a recording loaded up front, with a timeline to play, pause,
// step and jump through it. The diagnosis is recomputed at each point as it
// was live: stepping forward pushes the next snapshot; going back or far
// ahead rebuilds the dashboard with a fresh Tracker and re-feeds it the
// history before the new point.
//
// The timeline is a Source: a recording is spooled (sampler/record/spool)
// into deflated blocks in a temporary file with only the times in memory,
// and the dashboard decodes the snapshots around the cursor on demand, so a
// 24 h recording replays without the day in memory. The spool is filled on
// a goroutine: the first frame is painted from its first block while the
// timeline grows behind it ("loading 37%").
package replay

import (
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Options configure a replay.
type Options struct {
	// UI is the dashboard's configuration, reused at every rebuild. Its
	// SetInterval is ignored: the replay feeds frames itself,
	// diagnosed by trackers from NewTracker.
	UI ui.Options
	// NewTracker returns a tracker with no history
	// (diagnose.NewViewTracker, what the live collector runs); nil: no
	// findings.
	NewTracker func() *diagnose.Tracker
	// Name is what the timeline calls the recording (the file's base name).
	Name string
	// Speed is the initial playback speed, rounded to the nearest of Speeds
	// (default 1).
	Speed float64
	// Paused starts the replay paused instead of playing.
	Paused bool
	// Warnings are what the reader tolerated (a torn last line, skipped
	// lines, time going backwards). They are shown on a line above the
	// timeline until the first key: on stderr they would be hidden behind
	// the full screen.
	Warnings []string
}

// Speeds are the playback speeds the speed keys step through.
func Speeds() []float64 { return []float64{0.5, 1, 2, 5, 10, 60} }

// One frame per 100 ms is about the dashboard's frame rate (ui/cli's
// frameRate); at higher speeds a tick advances several snapshots
// instead of ticking faster than the screen repaints.
const minFrame = 100 * time.Millisecond

// jumpStep is what [ and ] move (docs/user-guide.md, "Replay": 10 s back / ahead).
const jumpStep = 10 * time.Second

// The engine's hysteresis remembers 30 s of evaluations
// (diagnose's closeAfter); re-evaluating twice that on top of the rules'
// window lets findings that opened before the window settle as they were
// live, for ~2× the cost of the window alone.
const settle = 60 * time.Second

// The widest sparkline (200 columns) shows ~160 points, so a
// rebuild backfills that many snapshots of history, without diagnosis.
const backfill = 180

// tickMsg advances playback; gen drops ticks scheduled before a pause,
// a speed change or a jump.
type tickMsg struct{ gen int }

// Model is the replay: the timeline, a cursor and the dashboard showing the
// snapshot under the cursor.
type Model struct {
	opts     Options
	src      Source
	interval time.Duration // median gap between snapshots
	cursor   int           // index of the snapshot shown
	speedIdx int
	playing  bool
	gen      int
	w, h     int
	inner    ui.Model
	tracker  *diagnose.Tracker // diagnoses from the last rebuild on; nil: none
	// want is the snapshot a seek asked for; cursor reaches it when the
	// job in flight (rebuild.go) is done.
	want      int
	job       *seekJob
	jobID     int
	jobSent   bool // the job's command has left Update
	warnShown bool // the warnings line is on screen
	load      loadState
	tr        *i18n.Tr // the replay's own words, Options.UI.Tr
}

var _ tea.Model = Model{}

// New builds a replay of timeline (oldest first, at least one snapshot),
// showing its first snapshot.
func New(timeline []sampler.Snapshot, opts Options) Model {
	return NewFrom(sampler.Snapshots(timeline), opts)
}

// NewFrom builds a replay over src (at least one snapshot), showing its
// first snapshot; only the snapshots a rebuild needs are read.
func NewFrom(src Source, opts Options) Model {
	m := Model{opts: opts, src: src, interval: medianGap(src), playing: !opts.Paused, warnShown: len(opts.Warnings) > 0, tr: i18n.OrEnglish(opts.UI.Tr)}
	if opts.Speed <= 0 {
		opts.Speed = 1
	}
	m.speedIdx = nearestSpeed(opts.Speed)
	if m.opts.UI.Interval <= 0 {
		m.opts.UI.Interval = m.interval
	}
	m.opts.UI.SetInterval = nil
	// A recording's PIDs are not this machine's processes: no signals.
	m.opts.UI.Kill = nil
	m.opts.UI.Replay = true
	m.inner = ui.New(m.opts.UI)
	m = m.startLoading()
	m.cursor = -1
	m = m.apply(m.plan(0).run()) // the first frame is built here, before the program runs
	m.playing = m.playing && src.Len() > 1
	return m
}

// Init starts playback (and whatever the dashboard starts).
func (m Model) Init() tea.Cmd { return tea.Batch(m.inner.Init(), m.schedule(), m.pollLoad()) }

// Cursor is the index of the snapshot shown; Len the timeline's length.
func (m Model) Cursor() int { return m.cursor }

// Len is the number of snapshots in the timeline.
func (m Model) Len() int { return m.src.Len() }

// Playing says whether playback runs.
func (m Model) Playing() bool { return m.playing }

// Speed is the playback speed (a multiple of the recorded pace).
func (m Model) Speed() float64 { return Speeds()[m.speedIdx] }

// Update handles the timeline keys and ticks and passes the rest on; a
// seek it starts is diagnosed by the command it returns (rebuild.go).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	nm, cmd := m.update(msg)
	m, job := nm.(Model).jobCmd()
	return m, tea.Batch(cmd, job)
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case seekDone:
		return m.onSeekDone(msg)
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m.updateInner(m.innerSize())
	case tickMsg:
		if msg.gen != m.gen || !m.playing {
			return m, nil
		}
		return m.onTick()
	case loadTickMsg:
		return m.onLoadTick()
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tea.MouseMsg:
		if msg.Y >= m.h-1 { // the timeline row is ours
			if msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft {
				return m.clickBar(msg.X), nil
			}
			return m, nil
		}
	}
	return m.updateInner(msg)
}

func (m Model) innerSize() tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: m.w, Height: max(0, m.h-1-m.warnRows()-m.errRows())}
}

// warnRows is the height of the warnings line: 1 while shown, on screens
// tall enough to spare it.
func (m Model) warnRows() int {
	if m.warnShown && m.h > 2 {
		return 1
	}
	return 0
}

func (m Model) updateInner(msg tea.Msg) (Model, tea.Cmd) {
	nm, cmd := m.inner.Update(msg)
	m.inner = nm.(ui.Model)
	return m, cmd
}

// schedule is the next playback tick, or nil when paused or at the end
// (at the end of what is loaded so far, it ticks on: more may come).
func (m Model) schedule() tea.Cmd {
	if !m.playing || m.atEnd() {
		return nil
	}
	gen := m.gen
	return tea.Tick(m.tickDelay(), func(time.Time) tea.Msg { return tickMsg{gen} })
}

// tickDelay is the wall time until the next snapshot at the current speed,
// at least minFrame. A hole in the recording (the recorder was stopped) is
// played as ten intervals rather than waited out: nobody watches an
// hour of nothing.
func (m Model) tickDelay() time.Duration {
	return max(minFrame, time.Duration(float64(m.recordedStep())/m.Speed()))
}

// recordedStep is the recorded time to the next snapshot, clamped to
// (0, 10 intervals].
func (m Model) recordedStep() time.Duration {
	if m.cursor >= m.src.Len()-1 {
		return m.interval
	}
	gap := m.src.Time(m.cursor + 1).Sub(m.src.Time(m.cursor))
	return min(max(gap, time.Nanosecond), 10*m.interval)
}

// onTick advances by the recorded time one tick covers (at least one
// snapshot) and stops at the end.
func (m Model) onTick() (tea.Model, tea.Cmd) {
	if m.job != nil { // the last step is still being diagnosed: wait for it
		return m, m.schedule()
	}
	budget := time.Duration(float64(m.tickDelay()) * m.Speed())
	n := 0
	for m.cursor+n < m.src.Len()-1 {
		step := m.stepAt(m.cursor + n)
		if n > 0 && step > budget {
			break
		}
		budget -= step
		n++
	}
	m = m.seek(m.cursor + n)
	if m.atEnd() {
		m.playing = false
	}
	return m, m.schedule()
}

// atEnd says the cursor is (or is going) to the last snapshot and no more
// will come.
func (m Model) atEnd() bool { return m.want >= m.src.Len()-1 && !m.load.loading }

// stepAt is the clamped recorded gap after snapshot i.
func (m Model) stepAt(i int) time.Duration {
	gap := m.src.Time(i + 1).Sub(m.src.Time(i))
	return min(max(gap, time.Nanosecond), 10*m.interval)
}

// seek moves the cursor to i: the job in flight, or one started now,
// brings the dashboard there.
func (m Model) seek(i int) Model {
	i = min(max(i, 0), m.src.Len()-1)
	m.want = i
	if m.job != nil || i == m.cursor {
		return m
	}
	return m.start(m.plan(i))
}

// rebuildCost is how many snapshots a rebuild at i would diagnose.
func (m Model) rebuildCost(i int) int { return i - m.diagnoseFrom(i) + 1 }

// diagnoseFrom is the first snapshot a rebuild at i re-evaluates: the
// rules' window plus settle before it.
func (m Model) diagnoseFrom(i int) int {
	cut := m.src.Time(i).Add(-(m.window() + settle))
	return sort.Search(i, func(j int) bool { return !m.src.Time(j).Before(cut) })
}

func (m Model) window() time.Duration {
	if m.opts.UI.Window > 0 {
		return m.opts.UI.Window
	}
	return diagnose.DefaultWindow
}

// medianGap is the recording's usual interval (1 s when it cannot tell).
func medianGap(tl Source) time.Duration {
	var gaps []time.Duration
	for i := 1; i < tl.Len(); i++ {
		if g := tl.Time(i).Sub(tl.Time(i - 1)); g > 0 {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		return time.Second
	}
	sort.Slice(gaps, func(a, b int) bool { return gaps[a] < gaps[b] })
	return gaps[len(gaps)/2]
}

func nearestSpeed(s float64) int {
	best := 0
	for i, v := range Speeds() {
		if abs(v-s) < abs(Speeds()[best]-s) {
			best = i
		}
	}
	return best
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
