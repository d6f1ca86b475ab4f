package alert

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// deliver posts queued events one at a time, in order, until ctx ends.
func (n *Notifier) deliver(ctx context.Context) {
	defer close(n.done)
	for {
		n.mu.Lock()
		var head queued
		if len(n.queue) > 0 {
			head = n.queue[0]
		}
		n.mu.Unlock()
		if head.seq == 0 {
			select {
			case <-ctx.Done():
				return
			case <-n.wake:
				continue
			}
		}
		err := n.post(ctx, head.ev)
		n.mu.Lock()
		if len(n.queue) > 0 && n.queue[0].seq == head.seq {
			n.queue = n.queue[1:] // sent, or given up on: the next one
		}
		if err != nil && ctx.Err() == nil {
			n.failure = err.Error()
		}
		n.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
	}
}

// post sends one event, retrying what a retry can fix: a network error,
// 429 (after its Retry-After, if it gives one) and 5xx.
func (n *Notifier) post(ctx context.Context, ev Event) error {
	body, err := n.payload(ev)
	if err != nil {
		return fmt.Errorf("alert webhook: encode: %w", err)
	}
	wait := n.opts.Backoff
	var last error
	for try := 0; try <= n.opts.Retries; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		var retryAfter time.Duration
		retryAfter, last = n.postOnce(ctx, body)
		if last == nil {
			return nil
		}
		if retryAfter < 0 {
			break // the receiver refused it: retrying sends the same
		}
		wait = max(wait, retryAfter)
	}
	return fmt.Errorf("alert webhook %s: %s %s: %w", redact(n.opts.URL), ev.Kind, ev.Rule, last)
}

// postOnce is one POST; retryAfter < 0 means do not retry.
func (n *Notifier) postOnce(ctx context.Context, body []byte) (retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.opts.URL, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.opts.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode < 300:
		return 0, nil
	case resp.StatusCode == http.StatusTooManyRequests:
		s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return time.Duration(min(max(s, 0), 300)) * time.Second, fmt.Errorf("%s", resp.Status)
	case resp.StatusCode >= 500:
		return 0, fmt.Errorf("%s", resp.Status)
	}
	return -1, fmt.Errorf("%s", resp.Status)
}

// payload is the event as the receiver wants it.
func (n *Notifier) payload(ev Event) ([]byte, error) {
	if n.opts.Format == "json" {
		return json.Marshal(struct {
			Text string `json:"text"`
			Event
		}{Text(ev), ev})
	}
	return json.Marshal(struct {
		Text string `json:"text"`
	}{Text(ev)})
}

// Text is the event in one line, as a chat shows it.
func Text(ev Event) string {
	where := "node"
	if ev.GPU >= 0 {
		where = fmt.Sprintf("GPU %d", ev.GPU)
	}
	head := fmt.Sprintf("[%s] %s %s: %s %s", ev.Severity, ev.Node, where, ev.Rule, ev.Kind)
	if ev.Kind == Closed {
		return head
	}
	s := head + " — " + ev.Title
	if ev.Fix != "" {
		s += ". Try: " + ev.Fix
	}
	return s + " (" + ev.Explain + ")"
}

// sortEvents orders a frame's events: closed first, then the most severe.
func sortEvents(evs []Event) {
	rank := map[string]int{Closed: 0, Worse: 1, Opened: 2}
	order := func(a, b *Event) int {
		if c := cmp.Compare(rank[a.Kind], rank[b.Kind]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		if c := cmp.Compare(a.GPU, b.GPU); c != 0 {
			return c
		}
		return strings.Compare(a.Rule, b.Rule)
	}
	sort.SliceStable(evs, func(i, j int) bool { return order(&evs[i], &evs[j]) < 0 })
}

// redact keeps a webhook's secret out of messages: Slack's and most chat
// services' URLs carry their token in the path.
func redact(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[:i+3+j] + "/…"
		}
	}
	return u
}
