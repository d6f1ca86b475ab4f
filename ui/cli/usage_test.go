package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runEnv(t *testing.T, env map[string]string, args ...string) (status int, stderr string) {
	t.Helper()
	d := fakeDeps(t)
	d.Getenv = func(k string) string { return env[k] }
	var out, errb bytes.Buffer
	root := NewRoot(d, &out, &errb)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	return ExitStatus(cmd, err, &errb), errb.String()
}

// TestUsageErrorLanguage: a usage error's line is in the language the
// command would speak (--lang, else config.toml, else the locale), with
// the same exit status; cobra's own message stays English inside a
// Chinese line; English is as it always was.
func TestUsageErrorLanguage(t *testing.T) {
	zhLocale := map[string]string{"LANG": "zh_CN.UTF-8"}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "gpuscope"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpuscope", "config.toml"), []byte("language = \"zh\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zhConfig := map[string]string{"XDG_CONFIG_HOME": dir, "LANG": "en_US.UTF-8"}
	for _, c := range []struct {
		env    map[string]string
		args   []string
		status int
		want   string
	}{
		{nil, []string{"--json"}, 2, "gpuscope: --json needs --once (see gpuscope --help)\n"},
		{nil, []string{"--json", "--lang", "zh"}, 2, "gpuscope：--json 需要与 --once 一起用（见 gpuscope --help）\n"},
		{zhLocale, []string{"--interval", "1ms", "--demo"}, 2, "gpuscope：--interval 1ms 超出范围：请用 100ms 到 60s（见 gpuscope --help）\n"},
		{zhLocale, []string{"--interval", "1ms", "--demo", "--lang", "en"}, 2, "gpuscope: --interval 1ms is out of range: use 100ms to 60s (see gpuscope --help)\n"},
		{zhConfig, []string{"record"}, 2, "gpuscope：record 需要 -o FILE（见 gpuscope --help）\n"},
		{zhLocale, []string{"--bogus"}, 2, "gpuscope：unknown flag: --bogus（见 gpuscope --help）\n"},
		{zhLocale, []string{"doctor", "--lang", "fr"}, 2, "gpuscope：--lang \"fr\"：请用 en 或 zh（见 gpuscope --help）\n"},
		{zhLocale, []string{"replay", "x.jsonl", "--speed", "3"}, 2, "gpuscope：--speed 3：请用 0.5, 1, 2, 5, 10, 60（见 gpuscope --help）\n"},
		{nil, []string{"report", "x.jsonl", "--price-per-kwh", "-0.1"}, 2, "gpuscope: --price-per-kwh -0.1: give a price of 0 or more (see gpuscope --help)\n"},
		{zhLocale, []string{"check", "--demo=list"}, checkErrorStatus, "gpuscope：--demo=list：运行 `gpuscope --demo=list` 列出场景（见 gpuscope --help）\n"},
	} {
		status, stderr := runEnv(t, c.env, c.args...)
		if status != c.status || stderr != c.want {
			t.Errorf("%v %v: status %d, stderr %q; want %d, %q", c.env, c.args, status, stderr, c.status, c.want)
		}
	}
}

// TestRuntimeErrorLanguage: any other error keeps its own words (the
// path, the system's message) behind a line in the reader's language,
// which says first when a file is missing; English is unchanged, and so
// are the exit statuses.
func TestRuntimeErrorLanguage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	zhLocale := map[string]string{"LANG": "zh_CN.UTF-8"}
	for _, c := range []struct {
		env    map[string]string
		args   []string
		status int
		prefix string
	}{
		{nil, []string{"report", missing}, 1, "gpuscope: "},
		{zhLocale, []string{"report", missing}, 1, "gpuscope：找不到文件："},
		{nil, []string{"check", "--from", missing, "--lang", "zh"}, checkErrorStatus, "gpuscope：找不到文件："},
	} {
		status, stderr := runEnv(t, c.env, c.args...)
		if status != c.status || !strings.HasPrefix(stderr, c.prefix) || !strings.Contains(stderr, missing) ||
			!strings.Contains(stderr, "no such file or directory") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v %v: status %d, stderr %q; want %d, one line starting %q with the path and the system's words",
				c.env, c.args, status, stderr, c.status, c.prefix)
		}
	}
}

// TestRecordLinesLanguage: record's closing line on stderr follows --lang
// (and the locale); English is as it was.
func TestRecordLinesLanguage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--lang", "zh"}, "gpuscope：已把 60 个快照录制到 " + path + "\n"},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, nil, "gpuscope：已把 60 个快照录制到 " + path + "\n"},
		{nil, nil, "gpuscope: recorded 60 snapshots to " + path + "\n"},
	} {
		args := append([]string{"record", "-o", path, "--force", "--demo", "--duration", "1m"}, c.args...)
		status, stderr := runEnv(t, c.env, args...)
		if status != 0 || !strings.HasSuffix(stderr, c.want) {
			t.Errorf("%v %v: status %d, stderr %q; want it to end %q", c.env, c.args, status, stderr, c.want)
		}
	}
}
