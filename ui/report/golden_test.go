package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/ui/i18n"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
)

// Golden files: go test ./ui/report/ -update rewrites testdata/*.golden.

func build(t *testing.T, src summary.Source, o summary.Options) *summary.Report {
	t.Helper()
	r, err := summary.Build(src, o)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return r
}

func goldenReport(t *testing.T) *summary.Report {
	return build(t, &summarytest.Synth{N: 300, GPUs: 4, Host: true, Recorded: true},
		summary.Options{File: "base.jsonl.gz", Format: "gpuscope", Warnings: []string{"line 301: torn last line (recording was cut off); read 300 snapshots"}})
}

func goldenComparison(t *testing.T) *summary.Comparison {
	base := goldenReport(t)
	after := build(t, &summarytest.Synth{N: 300, GPUs: 4, Host: true, Recorded: true, Quiet: true, UtilAdd: 40},
		summary.Options{File: "after.jsonl.gz", Format: "gpuscope"})
	return summary.Compare(base, after)
}

func render[T any](t *testing.T, f func(io.Writer, T) error, v T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenText(t *testing.T) {
	golden.RequireEqual(t, render(t, Text, goldenReport(t)))
}

func TestGoldenMarkdown(t *testing.T) {
	out := render(t, Markdown, goldenReport(t))
	for _, want := range []string{"## Environment", "| GPU-Util mean | p5 | p50 | p95 |", "**Fixed step count**", "**Peak memory**"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("benchmark.md lacks %q", want)
		}
	}
	golden.RequireEqual(t, out)
}

func TestGoldenJSON(t *testing.T) {
	out := render(t, JSON, goldenReport(t))
	var doc struct {
		Version  int `json:"gpuscope_report"`
		Findings []struct {
			Rule, Severity     string
			GPU, PID, Episodes int
			FirstSeen          string  `json:"first_seen"`
			OpenSeconds        float64 `json:"open_seconds"`
		}
		GPUs []map[string]any `json:"gpus"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if doc.Version != 1 || len(doc.Findings) != 1 || len(doc.GPUs) != 4 {
		t.Fatalf("version %d, %d findings, %d GPUs", doc.Version, len(doc.Findings), len(doc.GPUs))
	}
	f := doc.Findings[0]
	if f.Rule != "input_starved" || f.Severity != "critical" || f.GPU != 2 || f.PID != 777 || f.Episodes != 2 ||
		f.OpenSeconds != 148 || f.FirstSeen != "2026-03-01T10:00:50Z" {
		t.Errorf("finding %+v", f)
	}
	if doc.GPUs[0]["sm_active"] != nil || doc.GPUs[1]["sm_active"].(map[string]any)["p50"] != 60.0 {
		t.Errorf("sm_active: GPU 0 %v (want null), GPU 1 %v", doc.GPUs[0]["sm_active"], doc.GPUs[1]["sm_active"])
	}
	golden.RequireEqual(t, out)
}

func TestGoldenHTML(t *testing.T) {
	out := render(t, HTML, goldenReport(t))
	if n := bytes.Count(out, []byte("<svg ")); n != 4 {
		t.Errorf("%d inline charts, want one per GPU (4)", n)
	}
	for _, bad := range []string{"<?xml", "http://", "https://", "<script", "<link"} {
		if bad == "http://" {
			// the only URLs allowed are SVG namespace identifiers (never fetched)
			out2 := bytes.ReplaceAll(out, []byte("http://www.w3.org/"), nil)
			if bytes.Contains(out2, []byte(bad)) {
				t.Errorf("page refers to the network: %q", bad)
			}
			continue
		}
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("page contains %q: not self-contained", bad)
		}
	}
	golden.RequireEqual(t, out)
}

func TestHTMLAndMarkdownEscapeInput(t *testing.T) {
	evil := "<script>alert(1)</script> | x"
	r := build(t, &summarytest.Synth{N: 20, GPUs: 1, Names: []string{evil}}, summary.Options{File: "a<b>.csv"})
	html := string(render(t, HTML, r))
	if strings.Contains(html, "<script>") || !strings.Contains(html, "&lt;script&gt;") {
		t.Errorf("HTML does not escape the GPU name")
	}
	mdOut := string(render(t, Markdown, r))
	if strings.Contains(mdOut, "<script>") || !strings.Contains(mdOut, `\| x`) {
		t.Errorf("markdown does not escape the GPU name")
	}
}

func TestGoldenCompareText(t *testing.T) {
	golden.RequireEqual(t, render(t, CompareText, goldenComparison(t)))
}

func TestGoldenCompareMarkdown(t *testing.T) {
	golden.RequireEqual(t, render(t, CompareMarkdown, goldenComparison(t)))
}

func TestGoldenCompareJSON(t *testing.T) {
	out := render(t, CompareJSON, goldenComparison(t))
	var doc struct {
		Verdict  string
		GPUs     []struct{ Delta map[string]*float64 }
		Findings map[string][]struct{ Rule string }
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if len(doc.GPUs) != 4 || *doc.GPUs[1].Delta["util_mean"] != 10 || doc.GPUs[0].Delta["sm_active_mean"] != nil {
		t.Errorf("deltas %+v", doc.GPUs)
	}
	if len(doc.Findings["resolved"]) != 1 || len(doc.Findings["appeared"]) != 0 {
		t.Errorf("findings %+v", doc.Findings)
	}
	golden.RequireEqual(t, out)
}

// TestGoldenChinese: the report in Chinese in every format a person reads:
// labels, figures' words and the findings (from their messages) translated,
// what the input said kept as it was.
func TestGoldenChinese(t *testing.T) {
	zh := In(i18n.For("zh"))
	for _, c := range []struct {
		name   string
		render func(io.Writer, *summary.Report) error
		want   []string
	}{
		{"text", zh.Text, []string{"gpuscope 报告", "时间范围", "GPU 利用率", "诊断结论（", "GPU 2 吃不饱：CPU 端喂不上数据", "证据：", "个采样"}},
		{"markdown", zh.Markdown, []string{"# 基准测试", "## 环境", "| GPU | 型号 | GPU 利用率平均", "## 下次应该记录什么", "GPU 2 吃不饱"}},
		{"html", zh.HTML, []string{`<html lang="zh">`, "<th>严重程度</th>", "GPU 2 吃不饱", "显存峰值"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.render, goldenReport(t))
			for _, w := range c.want {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("the Chinese %s report lacks %q", c.name, w)
				}
			}
			for _, en := range []string{"evidence:", "memory peak", "First things to try", "What to record next time", "<th>severity</th>"} {
				if bytes.Contains(out, []byte(en)) {
					t.Errorf("English %q left in the Chinese %s report", en, c.name)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestGoldenCompareChinese: the comparison in Chinese, text and Markdown:
// the verdict from its messages, the figures' names, the groups.
func TestGoldenCompareChinese(t *testing.T) {
	zh := In(i18n.For("zh"))
	for _, c := range []struct {
		name   string
		render func(io.Writer, *summary.Comparison) error
		want   []string
	}{
		{"text", zh.CompareText, []string{"结论： GPU 利用率平均 47% → 73%（+26 个百分点）；input_starved 在 GPU 2 上已解决；没有新出现的问题", "个百分点", "改动前", "GPU 利用率 p95", "诊断·已解决"}},
		{"markdown", zh.CompareMarkdown, []string{"# 对比", "| 指标 | 改动前 | 改动后 | 变化 |", "已解决 ("}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, c.render, goldenComparison(t))
			for _, w := range c.want {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("the Chinese comparison (%s) lacks %q:\n%s", c.name, w, out)
				}
			}
			for _, en := range []string{"verdict:", "GPU-Util mean", "resolved on", "no new finding"} {
				if bytes.Contains(out, []byte(en)) {
					t.Errorf("English %q left in the Chinese comparison (%s)", en, c.name)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}
