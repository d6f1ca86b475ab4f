package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serve: bad flags and a bad web config are one line and exit 2, before
// anything listens.
func TestServeBadFlags(t *testing.T) {
	badWeb := filepath.Join(t.TempDir(), "web.yml")
	if err := os.WriteFile(badWeb, []byte("basic_auth_users: [oops\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--no-dcgm-names", "--no-gpuscope-names"}, "leave nothing to serve"},
		{[]string{"serve", "--interval", "5ms"}, "--interval 5ms is out of range"},
		{[]string{"serve", "--web.config.file", badWeb}, "--web.config.file " + badWeb},
		{[]string{"serve", "--demo=nosuch"}, "nosuch"},
		{[]string{"serve", "--web.max-requests", "-1"}, "--web.max-requests -1: want 0"},
		{[]string{"serve", "extra"}, "wrong number of arguments (1); usage: gpuscope serve"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		msg := errb.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, msg, c.want)
		}
	}
}

// report --prometheus: its usage errors are one line and exit 2.
func TestReportPrometheusBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "report needs FILE, or --prometheus URL --node N"},
		{[]string{"report", "--prometheus", "http://p:9090"}, "needs --node"},
		{[]string{"report", "x.jsonl", "--prometheus", "http://p:9090", "--node", "n"}, "choose one"},
		{[]string{"report", "--prometheus", "p:9090", "--node", "n"}, "want a URL"},
		{[]string{"report", "--prometheus", "http://p:9090", "--node", "n", "--step", "10ms"}, "--step 10ms"},
		{[]string{"--prometheus", "http://p:9090", "--demo"}, "choose one"},
		{[]string{"--prometheus", "http://p:9090", "--selector", "cluster=a", "--once"}, "in braces"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		msg := errb.String()
		if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, msg, c.want)
		}
	}
}

// TestServeStopsOnSIGTERM: a supervisor's SIGTERM ends `serve` promptly
// and cleanly: the feeder is joined before NVML is shut down (ui/cli
// serve.go), so a feeder that never stopped would hang the exit here.
func TestServeStopsOnSIGTERM(t *testing.T) {
	bin := buildBinary(t)
	e := startExporter(t, bin, "healthy", 1)
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, e.cmd, 10*time.Second); code != 0 {
		t.Errorf("serve exited with status %d after SIGTERM, want a clean exit", code)
	}
}

// TestServeBusyPortExits: a port already taken is refused at start with
// one line and a non-zero exit, and the feeder it started does not keep
// the process alive.
func TestServeBusyPortExits(t *testing.T) {
	bin := buildBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cmd := exec.Command(bin, "serve", "--demo", "--listen", l.Addr().String())
	done := make(chan error, 1)
	var out []byte
	go func() { var err error; out, err = cmd.CombinedOutput(); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(string(out), l.Addr().String()) {
			t.Errorf("serve on a busy port: %v\n%s", err, out)
		}
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("serve on a busy port did not exit")
	}
}
