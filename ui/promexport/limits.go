package promexport

import (
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// What any client that reaches the port may hold, and for how long
// (docs/security.md, "The exporter under abuse"). A scrape is one small
// GET and an answer of ~120 KB, so none of these come near a real one.
const (
	// readHeaderTimeout closes a connection that is slow to send its
	// request headers (slowloris).
	readHeaderTimeout = 10 * time.Second
	// idleTimeout closes a keep-alive connection that sends nothing after
	// its answer: longer than Prometheus's usual 15 s-1 min scrape
	// interval, so its own connection is reused from one scrape to the next.
	idleTimeout = 2 * time.Minute
	// writeTimeout bounds a request from its headers to the end of the
	// answer: a client that stops reading is dropped; Prometheus's scrape
	// timeout is 10 s by default.
	writeTimeout = 30 * time.Second
	// maxHeaderBytes: a scrape's headers (Accept, User-Agent, the scrape
	// timeout, a basic-auth or bearer token of a few KB) fit with room; Go's
	// default is 1 MB per connection.
	maxHeaderBytes = 16 << 10
	// DefaultMaxRequests is the number of /metrics answers built at once
	// beyond which a scrape gets 503: node_exporter's --web.max-requests
	// default.
	DefaultMaxRequests = 40
	// fdReserve is the file descriptors kept out of the connection cap for
	// the exporter itself: NVML's device files (a few per GPU), /proc
	// reads, the kubelet socket, the listener and standard streams.
	fdReserve = 64
	// minConns and maxConns bound the connection cap: at least a few
	// scrapers under a tiny open-files limit, and at most 1024 connections
	// (each ~20 KB of buffers and stack in the server: ~20 MB), twice the
	// 500 concurrent clients of the benchmark.
	minConns = 8
	maxConns = 1024
)

// connCap derives the connection cap from the open-files limit (the Go
// runtime raised the soft limit to the hard one at start).
func connCap() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return maxConns
	}
	return int(min(max(int64(lim.Cur)-fdReserve, minConns), maxConns))
}

// cappedListener holds at most max connections. When one more arrives it
// closes the connection that has waited longest without a request in
// progress (idle after an answer, or still sending its headers), so silent
// connections can never keep a scrape out; only when every connection is
// being answered is the newcomer closed. The server's ConnState hook
// (track) tells it which are being answered: net/http reports StateActive
// once a request's headers are read, just before its handler runs.
type cappedListener struct {
	net.Listener
	max   int
	mu    sync.Mutex
	conns map[net.Conn]*connInfo
}

type connInfo struct {
	busy  bool      // a request is being answered
	since time.Time // when it last became evictable
}

func newCappedListener(l net.Listener, max int) *cappedListener {
	return &cappedListener{Listener: l, max: max, conns: map[net.Conn]*connInfo{}}
}

// Accept implements net.Listener.
func (l *cappedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		var victim net.Conn
		if len(l.conns) >= l.max {
			victim = l.oldestEvictable()
			if victim != nil {
				delete(l.conns, victim)
			}
		}
		full := len(l.conns) >= l.max
		if !full {
			l.conns[c] = &connInfo{since: time.Now()}
		}
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
		}
		if full { // every connection is being answered
			c.Close()
			continue
		}
		return c, nil
	}
}

func (l *cappedListener) oldestEvictable() net.Conn {
	var (
		old  net.Conn
		when time.Time
	)
	for c, in := range l.conns {
		if !in.busy && (old == nil || in.since.Before(when)) {
			old, when = c, in.since
		}
	}
	return old
}

// track is the server's ConnState hook.
func (l *cappedListener) track(c net.Conn, s http.ConnState) {
	if tc, ok := c.(interface{ NetConn() net.Conn }); ok { // TLS
		c = tc.NetConn()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	in := l.conns[c]
	if in == nil {
		return
	}
	switch s {
	case http.StateActive:
		in.busy = true
	case http.StateIdle:
		in.busy, in.since = false, time.Now()
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
	}
}

// limitInFlight answers 503 to a request beyond max in h at once (0: no
// limit), as client_golang's promhttp.HandlerOpts.MaxRequestsInFlight does
// for node_exporter: a flood of scrapes costs each a short refusal instead
// of building hundreds of answers at once.
func limitInFlight(h http.Handler, max int) http.Handler {
	if max <= 0 {
		return h
	}
	slots := make(chan struct{}, max)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			h.ServeHTTP(w, r)
		default:
			http.Error(w, "too many scrapes in flight (--web.max-requests); try again", http.StatusServiceUnavailable)
		}
	})
}
