package cli

import (
	"bytes"
	"strings"
	"testing"
)

// doctorChecks are two checks as main hands them over: one warning, one
// failure with a word argument.
func doctorChecks() []DoctorCheck {
	return []DoctorCheck{
		{ID: "persistence", Name: "persistence mode", Status: "warn", Seen: "off on GPU 2",
			Fix:     "enable the persistence daemon (`sudo systemctl enable --now nvidia-persistenced`) or `sudo nvidia-smi -pm 1`, so tools and jobs start fast",
			SeenMsg: DoctorMsg{ID: "seen.persistence_off", Args: map[string]string{"GPUs": "2"}}, FixMsg: DoctorMsg{ID: "fix.persistence"}},
		{ID: "container", Name: "container", Status: "fail", Seen: "running in a container (docker); GPU device nodes passed in: no",
			Fix:     "x",
			SeenMsg: DoctorMsg{ID: "seen.container", Args: map[string]string{"Kind": "docker"}, Words: map[string]string{"Passed": "no"}}},
	}
}

func runDoctorCmd(t *testing.T, env map[string]string, args ...string) (status int, stdout string) {
	t.Helper()
	d := fakeDeps(t)
	d.Doctor = doctorChecks
	d.Getenv = func(k string) string { return env[k] }
	var out, errb bytes.Buffer
	root := NewRoot(d, &out, &errb)
	root.SetArgs(append([]string{"doctor"}, args...))
	cmd, err := root.ExecuteC()
	return ExitStatus(cmd, err, &errb), out.String() + errb.String()
}

// TestDoctorEnglishUnchanged: the English report, byte for byte as before
// the checks became messages.
func TestDoctorEnglishUnchanged(t *testing.T) {
	status, out := runDoctorCmd(t, nil)
	want := "gpuscope doctor: why a GPU may be invisible or slow to reach\n" +
		"  WARN  persistence mode       off on GPU 2\n" +
		"                               fix: enable the persistence daemon (`sudo systemctl enable --now nvidia-persistenced`) or `sudo nvidia-smi -pm 1`, so tools and jobs start fast\n" +
		"  FAIL  container              running in a container (docker); GPU device nodes passed in: no\n" +
		"                               fix: x\n" +
		"result: a check failed; fix it first (the first failure is usually the cause of the rest)\n"
	if status != 1 || out != want {
		t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
	}
}

// TestDoctorLangChinese: --lang zh (or a zh_* locale) prints the report in
// Chinese, the columns kept by display width; a fix without a message
// stays in English rather than half translated; JSON stays English.
func TestDoctorLangChinese(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		args []string
	}{{nil, []string{"--lang", "zh"}}, {map[string]string{"LANG": "zh_CN.UTF-8"}, nil}} {
		status, out := runDoctorCmd(t, c.env, c.args...)
		for _, want := range []string{
			"gpuscope doctor：GPU 为何可能看不到或访问缓慢\n",
			"  警告  持久模式               GPU 2 未开启\n",
			"                               修复：启用持久化守护进程",
			"  失败  容器                   运行在容器中（docker）；GPU 设备节点已传入：否\n",
			"修复：x\n",
			"结果：有检查失败",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v %v: no %q in\n%s", c.env, c.args, want, out)
			}
		}
		if status != 1 {
			t.Errorf("status %d, want 1", status)
		}
	}
	if _, out := runDoctorCmd(t, nil, "--lang", "zh", "--json"); !strings.Contains(out, `"seen": "off on GPU 2"`) || strings.Contains(out, "未开启") {
		t.Errorf("--json must stay English:\n%s", out)
	}
	if status, _ := runDoctorCmd(t, nil, "--lang", "fr"); status != 2 {
		t.Errorf("--lang fr: status %d, want 2", status)
	}
}

// TestDoctorNotApplicable: a check that does not apply prints N/A (its
// line says 不适用 in Chinese) and does not fail the run.
func TestDoctorNotApplicable(t *testing.T) {
	d := fakeDeps(t)
	d.Doctor = func() []DoctorCheck {
		return []DoctorCheck{{ID: "fabric", Name: "NVSwitch fabric", Status: "na",
			Seen:    "not applicable: no GPU reports an NVSwitch fabric (none here, or the driver cannot tell)",
			SeenMsg: DoctorMsg{ID: "seen.fabric_na"}}}
	}
	for lang, want := range map[string]string{"en": "  N/A   NVSwitch fabric        not applicable", "zh": "  N/A   NVSwitch 互连          不适用"} {
		var out, errb bytes.Buffer
		root := NewRoot(d, &out, &errb)
		root.SetArgs([]string{"doctor", "--lang", lang})
		cmd, err := root.ExecuteC()
		if status := ExitStatus(cmd, err, &errb); status != 0 || !strings.Contains(out.String(), want) {
			t.Errorf("--lang %s: status %d, output:\n%s\nwant %q", lang, status, out.String(), want)
		}
	}
}
