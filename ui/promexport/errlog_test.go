package promexport

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// slogTime is the time field of a line both loggers write.
var slogTime = regexp.MustCompile(`^time=(\S+) `)

// sameAsSlog writes msg through warnLog and through the slog logger it
// replaced, and compares the lines past their times (each its own clock
// reading), and the times' form.
func sameAsSlog(t *testing.T, msg string) {
	var got, want bytes.Buffer
	warnLog(&got).Print(msg)
	slog.NewLogLogger(slog.NewTextHandler(&want, &slog.HandlerOptions{Level: slog.LevelWarn}), slog.LevelWarn).Print(msg)
	g, w := got.String(), want.String()
	gt, wt := slogTime.FindStringSubmatch(g), slogTime.FindStringSubmatch(w)
	if gt == nil || wt == nil {
		t.Fatalf("%q: no time in %q or slog's %q", msg, g, w)
	}
	if g[len(gt[0]):] != w[len(wt[0]):] {
		t.Fatalf("%q: wrote %q, slog %q", msg, g, w)
	}
	a, err1 := time.Parse(time.RFC3339, gt[1])
	b, err2 := time.Parse(time.RFC3339, wt[1])
	if err1 != nil || err2 != nil || len(gt[1]) != len(wt[1]) || b.Sub(a).Abs() > time.Second {
		t.Fatalf("%q: time %q, slog's %q", msg, gt[1], wt[1])
	}
}

// TestWarnLogAsSlog: the server's error lines as slog's text handler wrote
// them: quoted where slog quotes, the same escapes.
func TestWarnLogAsSlog(t *testing.T) {
	for _, m := range warnSeeds {
		sameAsSlog(t, m)
	}
}

var warnSeeds = []string{
	"http: TLS handshake error from 127.0.0.1:52044: tls: first record does not look like a TLS handshake",
	"http: Accept error: accept tcp [::]:9400: accept4: too many open files; retrying in 5ms",
	"plain", "", "a=b", `say "hi"`, `back\slash`, "tab\there", "new\nline", "trailing\n", "\n\n",
	"bell\x07", "del\x7f", "ünïcode", "日本語", "nbsp\u00a0", "bad\xffutf8", "zero\u200bwidth", "\u2028",
}

// FuzzWarnLog: any line the server logs is written as slog wrote it.
func FuzzWarnLog(f *testing.F) {
	for _, m := range warnSeeds {
		f.Add(m)
	}
	f.Fuzz(sameAsSlog)
}

// TestServeLogsTLSErrorsAsSlog: the exporter's HTTP server logs a refused
// TLS handshake on ServeConfig.ErrorLog, one line in slog's form.
func TestServeLogsTLSErrorsAsSlog(t *testing.T) {
	dir := t.TempDir()
	testCA(t, dir, "server")
	path := filepath.Join(dir, "web.yml")
	if err := os.WriteFile(path, []byte("tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true})
	ctx, cancel := context.WithCancel(context.Background())
	lines, addr, done := make(lineWriter, 8), make(chan net.Addr, 1), make(chan error, 1)
	go func() {
		done <- Serve(ctx, h, ServeConfig{Listen: "127.0.0.1:0", WebConfigFile: path, ErrorLog: lines,
			Started: func(a net.Addr) { addr <- a }})
	}()
	defer func() { cancel(); <-done }()
	var a net.Addr
	select {
	case a = <-addr:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	c, err := net.Dial("tcp", a.String())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("hello, not TLS\r\n\r\n"))
	_, _ = io.ReadAll(c)
	c.Close()
	want := regexp.MustCompile(`^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d) level=WARN ` +
		`msg="http: TLS handshake error from 127\.0\.0\.1:\d+: tls: first record does not look like a TLS handshake"\n$`)
	select {
	case l := <-lines:
		if !want.MatchString(l) {
			t.Fatalf("logged %q", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no line logged for a refused handshake")
	}
}

// lineWriter hands each write on.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) { w <- string(p); return len(p), nil }
