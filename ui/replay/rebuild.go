package replay

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
)

// A seek's diagnosis runs as a command, off Update, as the live collector
// diagnoses off the dashboard's Update: a jump re-diagnoses up to the rules'
// window plus settle (minutes of snapshots), which would freeze the keys and
// the screen for as long. One job is in flight at a time; seeks made while
// it runs only move the target (want), and its result starts the next job.
type seekJob struct {
	id  int
	src Source
	// continuing: the snapshots after the one shown are fed to the
	// tracker in force (the dashboard does not observe it while the job
	// runs); otherwise a fresh tracker from newTracker.
	continuing bool
	tracker    *diagnose.Tracker
	newTracker func() *diagnose.Tracker
	bare       int // snapshots bare..from-1 are history without diagnosis
	from, to   int // snapshots from..to are diagnosed
}

// seekDone is a job's result: the frames to push (continuing) or to reset
// the dashboard with, and the tracker that made them.
type seekDone struct {
	id         int
	to         int
	continuing bool
	frames     []diagnose.Frame
	tracker    *diagnose.Tracker
}

// run diagnoses the job's snapshots. A rebuild shows snapshot to as it
// looked live: history backfilled for the sparklines without diagnosis
// (evaluating it would cost a diagnosis per second of it and leave no trace
// once the window passed), then the rules' window plus settle re-diagnosed
// by a new Tracker.
func (j seekJob) run() seekDone {
	t := j.tracker
	if !j.continuing {
		t = nil
		if j.newTracker != nil {
			t = j.newTracker()
		}
	}
	frames := make([]diagnose.Frame, 0, j.to+1-j.bare)
	for i := j.bare; i < j.from; i++ {
		frames = append(frames, diagnose.Frame{Snapshot: j.src.At(i)})
	}
	for i := j.from; i <= j.to; i++ {
		if t == nil {
			frames = append(frames, diagnose.Frame{Snapshot: j.src.At(i)})
			continue
		}
		frames = append(frames, t.Observe(j.src.At(i)))
	}
	return seekDone{id: j.id, to: j.to, continuing: j.continuing, frames: frames, tracker: t}
}

// plan is the job that shows snapshot i: forward by feeding the snapshots in
// between when that is cheaper than a rebuild, otherwise a rebuild.
func (m Model) plan(i int) *seekJob {
	m.jobID++
	j := &seekJob{id: m.jobID, src: m.src, to: i, newTracker: m.opts.NewTracker, tracker: m.tracker}
	if m.cursor >= 0 && i > m.cursor && i-m.cursor <= m.rebuildCost(i) {
		j.continuing, j.from, j.bare = true, m.cursor+1, m.cursor+1
		return j
	}
	j.from = m.diagnoseFrom(i)
	j.bare = max(0, j.from-backfill)
	return j
}

// start makes j the job in flight; Update sends its command.
func (m Model) start(j *seekJob) Model {
	m.jobID, m.job, m.jobSent = j.id, j, false
	return m
}

// jobCmd is the command of a job started but not yet sent.
func (m Model) jobCmd() (Model, tea.Cmd) {
	if m.job == nil || m.jobSent {
		return m, nil
	}
	m.jobSent = true
	j := *m.job
	return m, func() tea.Msg { return j.run() }
}

// apply shows a job's frames: the dashboard is Reset after a rebuild, not
// made anew, so focus, selection, sort and open pages survive the jump.
func (m Model) apply(d seekDone) Model {
	if d.continuing {
		for _, f := range d.frames {
			m.inner = m.inner.Push(f)
		}
	} else {
		m.inner = m.inner.Reset(d.frames)
	}
	m.tracker, m.cursor, m.job = d.tracker, d.to, nil
	return m
}

// onSeekDone applies the job in flight's result and starts the next one
// when the target moved meanwhile.
func (m Model) onSeekDone(d seekDone) (tea.Model, tea.Cmd) {
	if m.job == nil || d.id != m.job.id {
		return m, nil // a job given up (the timeline was re-sorted)
	}
	m = m.apply(d)
	if m.want != m.cursor {
		m = m.seek(m.want)
	}
	if m.atEnd() && m.job == nil {
		m.playing = false
	}
	return m, nil
}

// rebuildAt gives up any job in flight (its indexes no longer hold) and
// rebuilds at i, whatever was shown.
func (m Model) rebuildAt(i int) Model {
	m.job, m.tracker, m.cursor = nil, nil, -1
	return m.seek(i)
}
