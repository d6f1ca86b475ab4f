package promtext

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// parseAll is Parse's samples, each as one comparable line.
func parseAll(in string) ([]string, error) {
	var out []string
	err := Parse(strings.NewReader(in), func(s Sample) error {
		out = append(out, line(s.Name, s.Labels, s.Value, s.TimestampMs))
		return nil
	})
	slices.Sort(out)
	return out, err
}

func line(name string, labels []Label, v float64, ts int64) string {
	ls := make([]string, len(labels))
	for i, l := range labels {
		ls[i] = fmt.Sprintf("%s=%q", l.Name, l.Value)
	}
	slices.Sort(ls)
	return fmt.Sprintf("%s{%s} %v %d", name, strings.Join(ls, ","), math.Float64bits(v), ts)
}

// oracle is expfmt's reading of in, flattened to the same lines; ok is
// false where expfmt refuses it or where it holds a histogram or summary
// (which expfmt folds into one sample: Parse keeps their lines).
func oracle(in string) (lines []string, ok bool) {
	for l := range strings.Lines(in) {
		// expfmt reads quotes in a metric name (`A"x" 1` is Ax; its UTF-8
		// name syntax) even under LegacyValidation: not the 0.0.4 format.
		l = strings.TrimLeft(l, " \t")
		if name, _, _ := strings.Cut(l, "{"); !strings.HasPrefix(l, "#") && strings.Contains(name, `"`) {
			return nil, false
		}
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(in))
	if err != nil {
		return nil, false
	}
	for name, f := range fams {
		for _, m := range f.Metric {
			var v float64
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				v = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				v = m.GetGauge().GetValue()
			case dto.MetricType_UNTYPED:
				v = m.GetUntyped().GetValue()
			default:
				return nil, false
			}
			var ls []Label
			for _, l := range m.Label {
				ls = append(ls, Label{l.GetName(), l.GetValue()})
			}
			lines = append(lines, line(name, ls, v, m.GetTimestampMs()))
		}
	}
	slices.Sort(lines)
	return lines, true
}

func readSeed(t testing.TB, name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Both exporters' real output reads as expfmt reads it, sample for sample.
func TestParseAgreesWithExpfmt(t *testing.T) {
	for _, name := range []string{"gpuscope-serve.prom", "dcgm-exporter.prom"} {
		in := readSeed(t, name)
		got, err := parseAll(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, ok := oracle(in)
		if !ok {
			t.Fatalf("%s: expfmt refuses it or it has histograms", name)
		}
		if len(got) < 300 || !slices.Equal(got, want) {
			t.Errorf("%s: %d samples, expfmt %d; they differ", name, len(got), len(want))
		}
	}
}

func TestParseLines(t *testing.T) {
	good := map[string]string{
		"a 1":                             "a{} 1",
		"  a{} 1 1700000000000":           "a{} 1 ts",
		`a{b="x\"y\\z\n",c="d",} +Inf`:    "a{b=\"x\\\"y\\\\z\\n\",c=\"d\"} +Inf",
		"a:b_c NaN":                       "a:b_c{} NaN",
		"# TYPE a gauge\n# odd comment\n": "",
		`a {b="c"} -1e3`:                  `a{b="c"} -1000`,
	}
	for in, want := range good {
		var got []string
		err := Parse(strings.NewReader(in), func(s Sample) error {
			var ls []string
			for _, l := range s.Labels {
				ls = append(ls, fmt.Sprintf("%s=%q", l.Name, l.Value))
			}
			g := fmt.Sprintf("%s{%s} %v", s.Name, strings.Join(ls, ","), s.Value)
			if s.TimestampMs != 0 {
				g += " ts"
			}
			got = append(got, g)
			return nil
		})
		if err != nil || strings.Join(got, "\n") != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"1a 1":               "line 1: want a metric name",
		"a":                  "want a space and a value",
		"ok 1\na{b=1} 2":     "line 2: a: label b: want a quoted value",
		`a{b="x} 1`:          "no closing quote",
		`a{b="\t"} 1`:        `unknown escape`,
		`a{b="1",b="2"} 1`:   "label b twice",
		"a one":              `value "one" is not a number`,
		"a 1 2 3":            "at most a timestamp",
		"a 1 1.5":            "not milliseconds",
		`a{b="1" c="2"} 1`:   "want , or }",
		"a{" + `b="c"`:       "want , or }",
		"a " + "1" + "\x00x": "not a number",
	}
	for in, want := range bad {
		err := Parse(strings.NewReader(in), func(Sample) error { return nil })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", in, err, want)
		}
	}
}

// A line over MaxLine is an error, not a buffer of its size.
func TestParseLongLine(t *testing.T) {
	in := "a{b=\"" + strings.Repeat("x", MaxLine) + "\"} 1\n"
	if err := Parse(strings.NewReader(in), func(Sample) error { return nil }); err == nil {
		t.Error("a line over MaxLine was read")
	}
}

// FuzzParse holds Parse against expfmt: what expfmt reads, Parse reads
// alike; nothing panics.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"gpuscope-serve.prom", "dcgm-exporter.prom"} {
		lines := strings.SplitAfter(readSeed(f, name), "\n")
		for i := 0; i < len(lines); i += 40 {
			f.Add(strings.Join(lines[i:min(i+40, len(lines))], ""))
		}
	}
	f.Add("# TYPE h histogram\nh_bucket{le=\"+Inf\"} 3\nh_sum 1.5\nh_count 3\n")
	f.Add(`a{b="x\"y\\z\n"} 1 1700000000000` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := parseAll(in)
		want, ok := oracle(in)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("expfmt reads it, Parse says %v", err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("samples differ:\n got %q\nwant %q", got, want)
		}
	})
}

// ParseRaw holds no string or label slice per line: a scrape of 328 lines
// costs its scanner's buffer and little else (docs/benchmarks.md,
// "`--nodes` over 1,000 targets").
func TestParseRawAllocs(t *testing.T) {
	in := readSeed(t, "dcgm-exporter.prom")
	lines := 0
	allocs := testing.AllocsPerRun(5, func() {
		lines = 0
		err := ParseRaw(strings.NewReader(in), nil, func(_, labels []byte, _ float64, _ int64) error {
			if len(labels) > 0 {
				lines++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if lines != 328 || allocs > 5 {
		t.Errorf("%d lines read with %v allocations, want 328 lines and at most 5", lines, allocs)
	}
}

// Labels reads what ParseRaw gives between the braces.
func TestLabels(t *testing.T) {
	got, err := Labels(` a="b" , c="d\"e\\\n",`)
	if err != nil || len(got) != 2 || got[0] != (Label{"a", "b"}) || got[1] != (Label{"c", "d\"e\\\n"}) {
		t.Errorf("%q, %v", got, err)
	}
	if l, err := Labels(""); err != nil || l != nil {
		t.Errorf("no labels: %v, %v", l, err)
	}
	for _, bad := range []string{`a="b"} x`, `a="b" c="d"`, `a=b`, `a="b",a="c"`} {
		if _, err := Labels(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}
