package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportChinese: a recording of the demo reported with --lang zh, in
// text, Markdown and HTML: the findings recorded while it ran are shown in
// Chinese from the messages they carry, and JSON keeps its English keys.
func TestReportChinese(t *testing.T) {
	path := filepath.Join(t.TempDir(), "starved.jsonl")
	var out, errb bytes.Buffer
	if got := run([]string{"record", "-o", path, "--demo=input_starved", "--duration", "3m"}, &out, &errb); got != 0 {
		t.Fatalf("record: status %d\n%s", got, errb.String())
	}
	for format, want := range map[string][]string{
		"text":     {"诊断结论（1 项，即录制时诊断给出的结论）", "GPU 0 吃不饱：CPU 端喂不上数据", "先试： 用多个 worker 进程加载数据"},
		"markdown": {"# 基准测试", "先试这些：", "GPU 0 吃不饱"},
		"html":     {`<html lang="zh">`, "GPU 0 吃不饱", "<th>证据</th>"},
		"json":     {`"title": "GPU 0 starved: the CPU side cannot feed it"`, `"id": "input_starved.title"`},
	} {
		out.Reset()
		errb.Reset()
		if got := run([]string{"report", path, "--lang", "zh", "--format", format}, &out, &errb); got != 0 {
			t.Fatalf("report --format %s: status %d\n%s", format, got, errb.String())
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("report --format %s --lang zh lacks %q:\n%.2000s", format, w, out.String())
			}
		}
	}
	if got := run([]string{"report", path, "--lang", "fr"}, &out, &errb); got != 2 {
		t.Errorf("--lang fr: status %d, want 2 (a usage error)", got)
	}
}
