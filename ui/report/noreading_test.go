package report

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Each face that would say "none" under the findings says instead that
// nothing was judged where the input gave no GPU a reading, in each
// language; a GPU with one reading keeps the plain "none".
func TestFindingsNoneWhenNothingRead(t *testing.T) {
	named := &summary.Report{GPUs: []summary.GPU{{Index: 0, Name: "NVIDIA H100 80GB HBM3"}}}
	for _, lang := range []string{"en", "zh"} {
		rr := In(i18n.For(lang))
		for name, face := range map[string]func(*strings.Builder, *summary.Report) error{
			"text":     func(b *strings.Builder, r *summary.Report) error { return rr.Text(b, r) },
			"markdown": func(b *strings.Builder, r *summary.Report) error { return rr.Markdown(b, r) },
			"html":     func(b *strings.Builder, r *summary.Report) error { return rr.HTML(b, r) },
		} {
			var b strings.Builder
			if err := face(&b, named); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"en": "the input gives no GPU reading", "zh": "没有任何 GPU 读数"}[lang]
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s %s: no word that nothing was judged", lang, name)
			}
		}
	}
	read := &summary.Report{GPUs: []summary.GPU{{Index: 0}}}
	read.GPUs[0].TempMax.V, read.GPUs[0].TempMax.OK = 41, true
	var b strings.Builder
	if err := Text(&b, read); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "no GPU reading") || !strings.Contains(b.String(), "  none\n") {
		t.Errorf("a GPU with a reading: %q", b.String())
	}
}
