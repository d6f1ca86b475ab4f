package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"serve", "extra"}, "unknown command"},
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
