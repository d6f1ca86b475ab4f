// Package alert sends the findings that open, worsen and close to a webhook:
// a face of the one diagnosis loop, like the dashboard and the exporter. It
// takes frames as a pipeline sink, never blocks the sampling goroutine
// (events wait in a bounded queue, delivered by one goroutine with
// retries), and says what it could not deliver on the next frame.
package alert

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Options configure a Notifier. URL is required.
type Options struct {
	URL string
	// Format is "slack" ({"text": …}, which Slack, Mattermost, Rocket.Chat
	// and Discord's /slack endpoint take) or "json" (the event's fields).
	Format string
	// Min is the least severity sent (the zero value, Info, sends all;
	// the command line's default is warning: info findings are advice).
	Min diagnose.Severity
	// Client defaults to one with a 10 s timeout.
	Client *http.Client
	// Retries after the first try, on a network error, 429 or 5xx
	// (default 3), waiting Backoff, doubled each time (default 1 s).
	Retries int
	Backoff time.Duration
	// Queue bounds the events waiting (default 256); past it the oldest
	// is dropped and counted, so a dead receiver costs bounded memory.
	Queue int
	// Tr words the events (the findings' titles, evidence and first fix,
	// without the citations only the playbook resolves); nil leaves the
	// findings' own English.
	Tr *i18n.Tr
}

// Event is one change of a finding.
type Event struct {
	Kind     string            `json:"event"` // opened, worse, closed
	Node     string            `json:"node"`
	Time     time.Time         `json:"time"`
	Rule     string            `json:"rule"`
	Severity diagnose.Severity `json:"severity"`
	GPU      int               `json:"gpu"` // -1: the whole node
	PID      int               `json:"pid,omitempty"`
	Title    string            `json:"title"`
	Evidence string            `json:"evidence,omitempty"`
	Fix      string            `json:"fix,omitempty"`
	// Explain is the command that prints the rule's playbook page.
	Explain string `json:"explain"`
}

// Event kinds.
const (
	Opened = "opened"
	Worse  = "worse" // open already, now more severe
	Closed = "closed"
)

// queued is an event waiting, numbered from 1 so the sender can tell the
// one it sent from one the bound dropped meanwhile.
type queued struct {
	seq uint64
	ev  Event
}

type key struct {
	rule     string
	gpu, pid int
}

// Notifier turns frames into events and delivers them.
type Notifier struct {
	opts Options
	open map[key]diagnose.Finding // what was last sent as open, by finding

	mu      sync.Mutex
	queue   []queued
	seq     uint64
	wake    chan struct{}
	failure string // the newest delivery failure, said once on the next frame
	dropped int

	stop context.CancelFunc
	done chan struct{}
}

// New starts the delivery goroutine; Close stops it.
func New(opts Options) (*Notifier, error) {
	switch opts.Format {
	case "":
		opts.Format = "slack"
	case "slack", "json":
	default:
		return nil, fmt.Errorf("--alert-format %q: use slack or json", opts.Format)
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.Retries == 0 {
		opts.Retries = 3
	}
	if opts.Backoff <= 0 {
		opts.Backoff = time.Second
	}
	if opts.Queue <= 0 {
		opts.Queue = 256
	}
	ctx, stop := context.WithCancel(context.Background())
	n := &Notifier{opts: opts, open: map[key]diagnose.Finding{}, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go n.deliver(ctx)
	return n, nil
}

// Sink is the Notifier as one of the collector's sinks.
func (n *Notifier) Sink() pipeline.Sink { return pipeline.Sink{Name: "alert", Take: n.Take} }

// Take compares the frame's open findings with what was sent, queues the
// changes and returns the delivery failure seen since the last frame.
func (n *Notifier) Take(f diagnose.Frame) error {
	now := map[key]diagnose.Finding{}
	var events []Event
	for _, x := range f.Findings() {
		if x.Severity < n.opts.Min {
			continue
		}
		k := key{x.Rule, x.GPU, x.PID}
		now[k] = x
		was, ok := n.open[k]
		switch {
		case !ok:
			events = append(events, n.event(Opened, f, x))
		case x.Severity > was.Severity:
			events = append(events, n.event(Worse, f, x))
		}
	}
	for k, was := range n.open {
		if _, ok := now[k]; !ok {
			events = append(events, n.event(Closed, f, was))
		}
	}
	n.open = now
	sortEvents(events)
	return n.enqueue(events)
}

func (n *Notifier) event(kind string, f diagnose.Frame, x diagnose.Finding) Event {
	t := f.Snapshot.Time
	if kind != Closed && !x.LastSeen.IsZero() {
		t = x.LastSeen
	}
	ev := Event{Kind: kind, Node: f.Snapshot.Node.Hostname, Time: t.UTC(), Rule: x.Rule, Severity: x.Severity,
		GPU: x.GPU, PID: x.PID, Title: x.Title, Evidence: x.Evidence, Fix: x.Hint, Explain: "gpuscope explain " + x.Rule}
	if tr := n.opts.Tr; tr != nil {
		ev.Title, ev.Evidence, _ = tr.Finding(x)
		ev.Fix = tr.Fix(x.FixID, x.Hint)
	}
	return ev
}

// enqueue adds events, dropping the oldest past the bound, and reports
// what went wrong since the last call.
func (n *Notifier) enqueue(events []Event) error {
	n.mu.Lock()
	for _, ev := range events {
		n.seq++
		n.queue = append(n.queue, queued{n.seq, ev})
	}
	if over := len(n.queue) - n.opts.Queue; over > 0 {
		n.queue = n.queue[over:]
		n.dropped += over
	}
	failure, dropped := n.failure, n.dropped
	n.failure, n.dropped = "", 0
	n.mu.Unlock()
	if len(events) > 0 {
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
	switch {
	case failure != "" && dropped > 0:
		return fmt.Errorf("%s; %s dropped (queue full)", failure, sampler.Counted(dropped, "event", "events"))
	case failure != "":
		return fmt.Errorf("%s", failure)
	case dropped > 0:
		return fmt.Errorf("%s dropped: the webhook is not keeping up", sampler.Counted(dropped, "event", "events"))
	}
	return nil
}

// Close sends what is queued (waiting at most wait), then stops.
func (n *Notifier) Close(wait time.Duration) {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		n.mu.Lock()
		empty := len(n.queue) == 0
		n.mu.Unlock()
		if empty {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	n.stop()
	<-n.done
}
