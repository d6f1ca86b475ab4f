package i18n

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// eitherNumber is "(s)" or "(es)" after a word: "1 process(es)", which
// reads wrong for every count. Plural forms say it right.
var eitherNumber = regexp.MustCompile(`[A-Za-z]\((s|es)\)`)

// oneMany is "1 snapshots": a count of one before a plural noun ("1
// process" and "1 class" end in s but are singular).
var oneMany = regexp.MustCompile(`(^|[^\d.])1 [A-Za-z-]*[^s\W]s\b`)

// TestNoEitherNumber sweeps what English readers see for "(s)" and
// "(es)": the English catalogues, the findings' and doctor's templates,
// and the string literals of every package below main.
func TestNoEitherNumber(t *testing.T) {
	names, _ := files.Glob("*.en.toml")
	for _, name := range names {
		for id, s := range load(t, name) {
			if eitherNumber.MatchString(s) {
				t.Errorf("%s: %s: %q: give it plural forms (one = …, other = …)", name, id, s)
			}
		}
	}
	for id, m := range diagnoseMessages(t) {
		if eitherNumber.MatchString(m.en) {
			t.Errorf("%s: finding %s: %q: use {{plural .Count \"one\" \"other\"}}", m.at, id, m.en)
		}
	}
	lit := regexp.MustCompile("\"(?:[^\"\\\\\\n]|\\\\.)*\"|`[^`]*`")
	for _, root := range []string{"../../sampler", "../../diagnose", "../../ui", "../../main.go"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, s := range lit.FindAllString(string(b), -1) {
				if eitherNumber.MatchString(s) && !strings.Contains(s, "{{plural") {
					t.Errorf("%s: %s: choose the noun by its count", path, s)
				}
			}
			return nil
		})
	}
}

// TestCountsOfOne renders every English message that carries a {{.Count}}
// with counts of 1 and 2 through Tr.T, the path every face takes: 1 takes
// the singular, 2 the plural, and the plural forms differ.
func TestCountsOfOne(t *testing.T) {
	en := For("en")
	all := map[string]string{}
	names, _ := files.Glob("*.en.toml")
	for _, name := range names {
		maps.Copy(all, load(t, name))
	}
	checked := 0
	for _, id := range slices.Sorted(maps.Keys(all)) {
		tmpl := all[id]
		if !strings.Contains(tmpl, "{{.Count}}") || strings.HasPrefix(id, "doctor.") {
			continue // doctor's English is rendered in sampler/doctor (TestDoctorPlural)
		}
		data := map[string]any{}
		for _, f := range fieldRE.FindAllStringSubmatch(tmpl, -1) {
			data[f[1]] = "x"
		}
		data["Count"] = 1
		one := en.T(id, data)
		data["Count"] = 2
		two := en.T(id, data)
		if one == id || two == id {
			t.Errorf("%s does not render: %q / %q", id, one, two)
			continue
		}
		checked++
		if oneMany.MatchString(one) {
			t.Errorf("%s with a count of 1: %q", id, one)
		}
		if !strings.Contains(one, "1") || !strings.Contains(two, "2") {
			t.Errorf("%s: the count is not shown: %q / %q", id, one, two)
		}
	}
	if checked < 15 {
		t.Fatalf("only %d messages with a Count", checked)
	}
	// The counts the audit saw wrong, rendered as the faces render them.
	for _, c := range []struct {
		id   string
		data map[string]any
		want string
	}{
		{"report.range_of", map[string]any{"From": "a", "To": "b", "Span": "0s", "Count": 1}, "(0s, 1 snapshot)"},
		{"report.range_of", map[string]any{"From": "a", "To": "b", "Span": "0s", "Count": 2}, "(0s, 2 snapshots)"},
		{"status.record_stopped", map[string]any{"Path": "p", "Count": 1}, "recording stopped: 1 snapshot in p"},
		{"gpu.nvlinks", map[string]any{"Active": 4, "Total": 4, "Count": uint64(1)}, "4/4 active, 1 error"},
		{"gpu.nvlinks", map[string]any{"Active": 4, "Total": 4, "Count": uint64(3)}, "4/4 active, 3 errors"},
		{"check.verdict_none", map[string]any{"Span": "1s", "Samples": en.N("report.samples", 1)}, "diagnosis over 1s (1 sample): no findings"},
		{"fleet.summary", map[string]any{"Nodes": en.N("fleet.nodes", 1), "Up": 1, "NodesDown": 0, "GPUs": en.N("gpus.count", 1), "Busy": 1, "Idle": 0, "Down": 0},
			"1 node: 1 up, 0 down · 1 GPU: 1 busy, 0 idle, 0 down"},
	} {
		if got := en.T(c.id, c.data); !strings.Contains(got, c.want) {
			t.Errorf("%s %v = %q, want %q", c.id, c.data["Count"], got, c.want)
		}
	}
	// Chinese has one form: the count still shows.
	if got := For("zh").T("report.range_of", map[string]any{"From": "a", "To": "b", "Span": "0s", "Count": 1}); !strings.Contains(got, "1 个快照") {
		t.Errorf("zh range_of = %q", got)
	}
}
