package promexport

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
)

// Paths the exporter serves.
const (
	MetricsPath  = "/metrics"
	SnapshotPath = "/snapshot"
	FindingsPath = "/findings"
	HealthyPath  = "/-/healthy"
	ReadyPath    = "/-/ready"
)

// Handler serves the five paths over state. The patterns name GET (which
// also matches HEAD), so net/http answers any other method 405 with
// "Allow: GET, HEAD" and no data.
func Handler(state *State, opts Options) (http.Handler, error) {
	if !opts.DCGM && !opts.Own {
		return nil, errors.New("exporter: no name set chosen")
	}
	set := newMetricSet(opts)
	mux := http.NewServeMux()
	mux.Handle("GET "+MetricsPath, limitInFlight(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveMetrics(w, r, set, state)
	}), opts.MaxRequests))
	mux.HandleFunc("GET "+SnapshotPath, func(w http.ResponseWriter, _ *http.Request) {
		snap, _, ok := state.Latest()
		writeJSON(w, snap, ok)
	})
	mux.HandleFunc("GET "+FindingsPath, func(w http.ResponseWriter, _ *http.Request) {
		_, findings, ok := state.Latest()
		if findings == nil {
			findings = []diagnose.Finding{} // [] not null: "nothing wrong" is an answer
		}
		writeJSON(w, findings, ok)
	})
	mux.HandleFunc("GET "+HealthyPath, func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "gpuscope exporter is healthy.")
	})
	mux.HandleFunc("GET "+ReadyPath, func(w http.ResponseWriter, _ *http.Request) {
		if _, _, ok := state.Latest(); !ok {
			http.Error(w, "gpuscope exporter is not ready: no snapshot taken yet.", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "gpuscope exporter is ready.")
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "gpuscope exporter: %s %s %s %s %s\n", MetricsPath, SnapshotPath, FindingsPath, HealthyPath, ReadyPath)
	})
	return compressed(mux), nil
}

// writeJSON answers 503 until the first tick, so a client never reads an
// empty snapshot as "a node without GPUs".
func writeJSON(w http.ResponseWriter, v any, ok bool) {
	if !ok {
		http.Error(w, "no snapshot taken yet", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // a failed write is the client gone
}

// ServeConfig is where and how to serve.
type ServeConfig struct {
	Listen string // host:port
	// WebConfigFile is the web configuration every Prometheus exporter
	// reads (TLS, basic auth; webconfig.go); "" serves plain HTTP.
	WebConfigFile string
	// ErrorLog takes the HTTP server's own errors (a refused TLS
	// handshake, a failed accept), a line each as slog's text handler
	// writes a warning (errlog.go); nil: the log package's standard
	// logger.
	ErrorLog io.Writer
	// Started is told the bound address once the socket listens (a port of
	// 0 picks a free one).
	Started func(addr net.Addr)
	// maxConns caps the open connections (0: from the open-files limit,
	// connCap); tests set it, and the timeouts (0: limits.go's), small.
	maxConns        int
	idle, write, rh time.Duration
}

// ValidateWebConfig checks the web configuration file before anything
// starts, so a typo is one line at startup, not a failure at the first
// scrape. It reports whether the file turns TLS on and basic auth on.
func ValidateWebConfig(path string) (tlsOn, auth bool, err error) {
	c, err := loadWebConfig(path)
	if err != nil {
		return false, false, fmt.Errorf("--web.config.file %s: %w", path, err)
	}
	return c.TLS.enabled(), len(c.Users) > 0, nil
}

// Serve listens and serves h until ctx ends.
func Serve(ctx context.Context, h http.Handler, cfg ServeConfig) error {
	web, err := loadWebConfig(cfg.WebConfigFile)
	if err != nil {
		return fmt.Errorf("--web.config.file %s: %w", cfg.WebConfigFile, err)
	}
	tlsConf, err := web.tlsConfig()
	if err != nil {
		return fmt.Errorf("--web.config.file %s: %w", cfg.WebConfigFile, err)
	}
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	if cfg.Started != nil {
		cfg.Started(l.Addr())
	}
	capped := newCappedListener(l, cmp.Or(cfg.maxConns, connCap()))
	srv := &http.Server{Handler: web.headers(web.basicAuth(h)), TLSConfig: tlsConf,
		ReadHeaderTimeout: cmp.Or(cfg.rh, readHeaderTimeout),
		IdleTimeout:       cmp.Or(cfg.idle, idleTimeout),
		WriteTimeout:      cmp.Or(cfg.write, writeTimeout),
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         capped.track,
	}
	if cfg.ErrorLog != nil {
		srv.ErrorLog = warnLog(cfg.ErrorLog)
	}
	done := make(chan error, 1)
	go func() {
		if tlsConf == nil {
			done <- srv.Serve(capped)
			return
		}
		if web.HTTP.HTTP2 != nil && !*web.HTTP.HTTP2 {
			srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){} // HTTP/1.1 only
		}
		done <- srv.ServeTLS(capped, "", "")
	}()
	select {
	case err := <-done:
		return fmt.Errorf("serve on %s: %w", l.Addr(), err)
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// URL is how a person reaches addr: https when TLS is on.
func URL(addr net.Addr, tls bool) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	return scheme + "://" + addr.String()
}

// serveMetrics answers in the format the scraper asks for: OpenMetrics when
// its Accept header prefers it (Prometheus does), else the text format
// (gzipped by compressed when asked).
func serveMetrics(w http.ResponseWriter, r *http.Request, set *metricSet, state *State) {
	om := wantsOpenMetrics(r.Header.Get("Accept"))
	w.Header().Set("Content-Type", contentTypeText)
	if om {
		w.Header().Set("Content-Type", contentTypeOpenMetrics)
	}
	sc := set.build(state)
	if sc == nil {
		if om {
			_, _ = io.WriteString(w, "# EOF\n")
		}
		return
	}
	defer set.release(sc)
	sc.body = appendExposition(sc.body[:0], sc, om)
	_, _ = w.Write(sc.body) // a failed write is the scraper gone
}
