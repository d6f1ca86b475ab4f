package alert

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// receiver is a local webhook that answers each POST with the next status
// of its script (200 once the script is used up) and keeps the bodies.
type receiver struct {
	mu     sync.Mutex
	script []int
	bodies []map[string]any
	tries  int
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tries++
	code := http.StatusOK
	if len(r.script) > 0 {
		code, r.script = r.script[0], r.script[1:]
	}
	if code == http.StatusOK {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		r.bodies = append(r.bodies, m)
	}
	w.WriteHeader(code)
}

func (r *receiver) got() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.bodies...)
}

func frame(sec int, fs ...diagnose.Finding) diagnose.Frame {
	t := time.Date(2026, 12, 6, 14, 0, sec, 0, time.UTC)
	return diagnose.Frame{Snapshot: sampler.Snapshot{Time: t, Node: sampler.Node{Hostname: "gpu-a"}},
		Diagnosis: &diagnose.Diagnosis{Findings: fs}}
}

func finding(rule string, gpu int, sev diagnose.Severity) diagnose.Finding {
	return diagnose.Finding{Rule: rule, GPU: gpu, Severity: sev, Title: rule + " title", Hint: "the fix"}
}

// Findings that open, worsen and close reach the webhook in order, through
// two 503s (retried with backoff); info findings are not alerts.
func TestEventsDeliveredWithRetries(t *testing.T) {
	rcv := &receiver{script: []int{503, 503}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	n, err := New(Options{URL: srv.URL + "/hooks/T000/SECRET", Format: "json", Min: diagnose.Warning, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	thermal := finding(diagnose.RuleThermalThrottle, 4, diagnose.Warning)
	for _, f := range []diagnose.Frame{
		frame(0, thermal, finding(diagnose.RuleTensorCoresIdle, 1, diagnose.Info)),
		frame(1, thermal), // nothing changed: nothing sent
		frame(2, finding(diagnose.RuleThermalThrottle, 4, diagnose.Critical)),
		frame(3),
	} {
		if err := n.Take(f); err != nil {
			t.Errorf("Take: %v", err)
		}
	}
	n.Close(5 * time.Second)
	got := rcv.got()
	var kinds []string
	for _, b := range got {
		kinds = append(kinds, b["event"].(string)+" "+b["severity"].(string))
	}
	if want := "opened warning,worse critical,closed critical"; strings.Join(kinds, ",") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
	if rcv.tries != 5 {
		t.Errorf("%d POSTs, want 5 (two 503s retried)", rcv.tries)
	}
	first := got[0]
	if first["node"] != "gpu-a" || first["gpu"].(float64) != 4 || first["explain"] != "gpuscope explain thermal_throttle" ||
		!strings.Contains(first["text"].(string), "[warning] gpu-a GPU 4: thermal_throttle opened — thermal_throttle title. Try: the fix") {
		t.Errorf("first event %v", first)
	}
}

// A receiver that refuses the event (404) is not retried, and the next
// frame says so in one line without the URL's secret path.
func TestRefusalSaidOnceWithoutTheSecret(t *testing.T) {
	rcv := &receiver{script: []int{404}}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	n, _ := New(Options{URL: srv.URL + "/services/T000/B000/SECRET", Backoff: time.Millisecond})
	defer n.Close(time.Second)
	if err := n.Take(frame(0, finding(diagnose.RuleXidError, 0, diagnose.Critical))); err != nil {
		t.Fatal(err)
	}
	var err error
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		err = n.Take(frame(1, finding(diagnose.RuleXidError, 0, diagnose.Critical)))
	}
	if err == nil || !strings.Contains(err.Error(), "404") || strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("failure %v", err)
	}
	if rcv.tries != 1 {
		t.Errorf("%d POSTs, want 1: a 404 is not retried", rcv.tries)
	}
	if err := n.Take(frame(2, finding(diagnose.RuleXidError, 0, diagnose.Critical))); err != nil {
		t.Errorf("the failure was said twice: %v", err)
	}
}

// A receiver that never answers costs a bounded queue; the drops are said.
func TestDeadReceiverBoundedQueue(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	n, _ := New(Options{URL: srv.URL, Queue: 2, Retries: 1, Backoff: time.Millisecond})
	var err error
	for i := range 6 {
		fs := []diagnose.Finding{finding(diagnose.RuleXidError, i, diagnose.Critical)} // a new one each frame, the old closes
		if e := n.Take(frame(i, fs...)); e != nil {
			err = e
		}
	}
	if err == nil || !strings.Contains(err.Error(), "dropped") {
		t.Fatalf("no drop reported: %v", err)
	}
	n.mu.Lock()
	q := len(n.queue)
	n.mu.Unlock()
	if q > 2 {
		t.Errorf("queue holds %d, bound 2", q)
	}
	n.stop()
}

func TestSlackPayloadIsText(t *testing.T) {
	n := &Notifier{opts: Options{Format: "slack"}}
	b, err := n.payload(Event{Kind: Closed, Node: "gpu-a", Rule: "xid_error", Severity: diagnose.Critical, GPU: -1})
	if err != nil || string(b) != `{"text":"[critical] gpu-a node: xid_error closed"}` {
		t.Errorf("payload %s, %v", b, err)
	}
	if _, err := New(Options{URL: "http://x", Format: "teams"}); err == nil || !strings.Contains(err.Error(), "--alert-format") {
		t.Errorf("bad format: %v", err)
	}
}
