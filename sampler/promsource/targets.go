package promsource

import (
	"bufio"
	"bytes"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Target is one node's metrics endpoint that `--nodes` scrapes: a
// `gpuscope serve` or a dcgm-exporter.
type Target struct {
	Instance string // host:port, the node's key as Prometheus would name it
	URL      string // what is fetched
}

// TargetError is a --nodes entry that is not a target; Line is its line
// in File, or its place in the comma list when File is "".
type TargetError struct {
	File   string
	Line   int
	Target string
	Dup    bool // listed twice
}

func (e *TargetError) Error() string {
	where := "item " + strconv.Itoa(e.Line)
	if e.File != "" {
		where = e.File + " line " + strconv.Itoa(e.Line)
	}
	if e.Dup {
		return "--nodes: " + where + ": " + strconv.Quote(e.Target) + " is listed twice"
	}
	return "--nodes: " + where + ": " + strconv.Quote(e.Target) + " is not a target: want host:port or http://host:port/metrics"
}

// ParseTargets reads a comma-separated list of targets; ParseTargetFile
// reads one a line, # starting a comment.
func ParseTargets(list string) ([]Target, error) {
	var out []Target
	seen := map[string]bool{}
	for i, item := range strings.Split(list, ",") {
		if err := addTarget(&out, seen, strings.TrimSpace(item), "", i+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ParseTargetFile reads data, the content of file, one target a line.
func ParseTargetFile(file string, data []byte) ([]Target, error) {
	var out []Target
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if err := addTarget(&out, seen, line, file, n); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &TargetError{File: file, Line: 0, Target: err.Error()}
	}
	return out, nil
}

func addTarget(out *[]Target, seen map[string]bool, s, file string, n int) error {
	t, ok := parseTarget(s)
	if !ok {
		return &TargetError{File: file, Line: n, Target: s}
	}
	if seen[t.URL] {
		return &TargetError{File: file, Line: n, Target: s, Dup: true}
	}
	seen[t.URL] = true
	*out = append(*out, t)
	return nil
}

// parseTarget takes host:port (its /metrics over HTTP) or an http(s) URL
// (its path, /metrics when it has none).
func parseTarget(s string) (Target, bool) {
	raw := s
	if !strings.Contains(s, "://") {
		raw = "http://" + s
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Fragment != "" {
		return Target{}, false
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil || host == "" || strings.ContainsAny(host, " /") {
		return Target{}, false
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return Target{}, false
	}
	if !strings.Contains(s, "://") && u.Path != "" {
		return Target{}, false // host:port/path: say the scheme
	}
	if u.Path == "" {
		u.Path = "/metrics"
	}
	return Target{Instance: u.Host, URL: u.String()}, true
}
