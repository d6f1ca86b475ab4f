// Package promsource reads GPU fleets from a Prometheus-compatible server
// (Prometheus, Thanos, VictoriaMetrics, Mimir speak the same HTTP API) and
// yields plain values: a Fleet (one row per node) and, for one node, the
// snapshots the dashboard and the diagnosis already understand. It reads
// what `gpuscope serve` and NVIDIA's dcgm-exporter export. The UI never
// queries Prometheus itself.
package promsource

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config says where the server is and how to authenticate.
type Config struct {
	URL string
	// Selector narrows every query, e.g. `{cluster="a"}`.
	Selector              string
	BearerTokenFile       string
	BasicAuthUser         string
	BasicAuthPasswordFile string
	CAFile                string
	CertFile, KeyFile     string // client certificate
	InsecureSkipVerify    bool
	Timeout               time.Duration // per query; 30 s when zero
	// JobLabel names the label that says which distributed job a GPU's
	// series belong to (GPU.Job); "" groups by the pod name's prefix.
	JobLabel string
}

// Source queries one server. Safe for concurrent use.
type Source struct {
	matchers string // the selector's matchers without braces, "" for none
	timeout  time.Duration
	url      string
	jobLabel string
	hc       *http.Client // auth and TLS as configured (queryEach)
}

// New checks the configuration and builds the client; it does not connect.
func New(cfg Config) (*Source, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--prometheus %q: want a URL such as http://prometheus:9090", cfg.URL)
	}
	matchers, err := selectorMatchers(cfg.Selector)
	if err != nil {
		return nil, err
	}
	if cfg.JobLabel != "" && !validLabelName(cfg.JobLabel) {
		return nil, fmt.Errorf("--job-label %q: not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*)", cfg.JobLabel)
	}
	client, err := httpClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("--prometheus authentication/TLS flags: %w", err)
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	return &Source{matchers: matchers, timeout: timeout, url: cfg.URL, jobLabel: cfg.JobLabel, hc: client}, nil
}

// URL is the server's address, for titles.
func (s *Source) URL() string { return s.url }

// selectorMatchers turns `{a="b", c=~"d"}` into `a="b", c=~"d"`, so each
// query can add its own matchers inside one pair of braces.
func selectorMatchers(sel string) (string, error) {
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return "", nil
	}
	if !strings.HasPrefix(sel, "{") || !strings.HasSuffix(sel, "}") {
		return "", fmt.Errorf(`--selector %q: want label matchers in braces, e.g. '{cluster="a"}'`, sel)
	}
	return strings.TrimSpace(sel[1 : len(sel)-1]), nil
}

// sel returns `name{selector, extra}`.
func (s *Source) sel(name string, extra ...string) string {
	var ms []string
	if s.matchers != "" {
		ms = append(ms, s.matchers)
	}
	ms = append(ms, extra...)
	return name + "{" + strings.Join(ms, ",") + "}"
}

// names matches any of the series names: `{__name__=~"a|b", selector}`.
func (s *Source) names(names []string, extra ...string) string {
	return s.sel("", append([]string{`__name__=~"` + strings.Join(names, "|") + `"`}, extra...)...)
}
