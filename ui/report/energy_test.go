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
