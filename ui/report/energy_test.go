package report

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Given a price, the report's head says what the energy cost, in each
// format and language.
func TestEnergyCostLine(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 300, GPUs: 4}, summary.Options{PricePerKWh: 0.12})
	for _, c := range []struct {
		lang string
		want string
	}{
		{"en", "0.0905 kWh on 4 GPUs  (cost 0.0109 at 0.12 per kWh)"},
		{"zh", "4 块 GPU 共 0.0905 kWh（按每 kWh 0.12 计，费用 0.0109）"},
	} {
		for name, f := range map[string]func(*strings.Builder) error{
			"text":     func(b *strings.Builder) error { return In(i18n.For(c.lang)).Text(b, r) },
			"markdown": func(b *strings.Builder) error { return In(i18n.For(c.lang)).Markdown(b, r) },
			"html":     func(b *strings.Builder) error { return In(i18n.For(c.lang)).HTML(b, r) },
		} {
			var b strings.Builder
			if err := f(&b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), c.want) {
				t.Errorf("%s %s lacks %q", c.lang, name, c.want)
			}
		}
	}
}

// compare says the two runs' energy and its change: in the head, and per
// GPU as a figure; a shorter after run used less.
func TestCompareEnergy(t *testing.T) {
	base := build(t, &summarytest.Synth{N: 300, GPUs: 4}, summary.Options{})
	after := build(t, &summarytest.Synth{N: 150, GPUs: 4}, summary.Options{})
	c := summary.Compare(base, after)
	var b strings.Builder
	if err := In(i18n.For("en")).CompareText(&b, c); err != nil {
		t.Fatal(err)
	}
	head := ""
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "energy ") {
			head = line
		}
	}
	if !strings.Contains(head, "0.0905 kWh on 4 GPUs → ") || !strings.Contains(head, "(-0.04") {
		t.Errorf("energy head line %q: want base → after and a negative change", head)
	}
	if !strings.Contains(b.String(), "  energy   ") || !strings.Contains(b.String(), " -0.0") {
		t.Errorf("no per-GPU energy row with a negative change:\n%s", b.String())
	}
	var j strings.Builder
	if err := CompareJSON(&j, c); err != nil {
		t.Fatal(err)
	}
	if strings.Count(j.String(), `"idle_kwh"`) != 2 || !strings.Contains(j.String(), `"energy_kwh": `) {
		t.Errorf("JSON lacks the sides' energy or the delta:\n%.2000s", j.String())
	}
}
