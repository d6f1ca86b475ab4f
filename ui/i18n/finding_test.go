package i18n

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// sourceMessage is one say/then/item call of package diagnose: its id,
// English template and the argument names the call passes.
type sourceMessage struct {
	en    string
	names []string
	at    string
}

// diagnoseMessages reads every say/then/item/Say call from diagnose's
// source, the only place a finding's English is written.
func diagnoseMessages(t *testing.T) map[string]sourceMessage {
	t.Helper()
	out := map[string]sourceMessage{}
	// diagnose.Say: in fleetdiag and summary.
	for _, c := range sourceCalls(t, []string{"../../diagnose/*.go", "../../diagnose/*/*.go"}, "say", "then", "item", "Say") {
		id, en, names, ok := c.message(t)
		if !ok {
			continue
		}
		if prev, dup := out[id]; dup && (prev.en != en || !slices.Equal(prev.names, names)) {
			t.Errorf("%s: id %q also used at %s with other text or arguments", c.at, id, prev.at)
		}
		out[id] = sourceMessage{en, names, c.at}
	}
	return out
}

var fieldRE = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

func fieldsOf(s string) []string {
	var out []string
	for _, m := range fieldRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestFindingMessagesTranslated: every piece of a finding's English has a
// Chinese message with the same template fields, every call passes exactly
// the fields its template uses, and no Chinese message is left over.
func TestFindingMessagesTranslated(t *testing.T) {
	src := diagnoseMessages(t)
	if len(src) < 100 {
		t.Fatalf("found only %d messages in diagnose's source", len(src))
	}
	zh := load(t, "findings.zh.toml")
	for _, id := range slices.Sorted(maps.Keys(src)) {
		m := src[id]
		if got := fieldsOf(m.en); !slices.Equal(got, slices.Compact(m.names)) {
			t.Errorf("%s: %q uses fields %v but the call passes %v", m.at, id, got, m.names)
		}
		z, ok := zh["finding."+id]
		if !ok {
			t.Errorf("%s: %q has no Chinese (findings.zh.toml finding.%s)", m.at, id, id)
			continue
		}
		if fz := fieldsOf(z); !slices.Equal(fz, fieldsOf(m.en)) {
			t.Errorf("finding.%s: fields %v in English, %v in Chinese", id, fieldsOf(m.en), fz)
		}
	}
	for id := range zh {
		if _, ok := src[strings.TrimPrefix(id, "finding.")]; !ok {
			t.Errorf("%s: no such message in diagnose (left over)", id)
		}
	}
}

// TestFindingInChinese renders findings the rules built: Chinese throughout
// (no id shown), the numbers carried over, and English unchanged.
func TestFindingInChinese(t *testing.T) {
	zh := For("zh")
	en := For("en")
	fs := scenarioFindings(t)
	if len(fs) < 20 {
		t.Fatalf("only %d findings over the demo scenarios", len(fs))
	}
	for _, f := range fs {
		if f.I18n == nil {
			t.Fatalf("%s: no messages", f.Rule)
		}
		title, ev, est := zh.Finding(f)
		if !hasHan(title) {
			t.Errorf("%s: title not Chinese: %q", f.Rule, title)
		}
		for _, s := range []string{title, ev, est} {
			if strings.Contains(s, "finding.") || strings.Contains(s, "{{") {
				t.Errorf("%s: an id or template shows: %q", f.Rule, s)
			}
		}
		if ev == f.Evidence { // "Xid 31（12:00:28）" has no Han but is translated
			t.Errorf("%s: evidence left in English: %q", f.Rule, ev)
		}
		if f.Estimated != "" && !hasHan(est) {
			t.Errorf("%s: estimate not Chinese: %q", f.Rule, est)
		}
		if g := digits(title); g != digits(f.Title) {
			t.Errorf("%s: title numbers %q, English has %q", f.Rule, g, digits(f.Title))
		}
		// A recording or check --json carries the messages: read back, the
		// finding renders the same.
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var back diagnose.Finding
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if t2, e2, s2 := zh.Finding(back); t2 != title || e2 != ev || s2 != est {
			t.Errorf("%s: read back from JSON renders %q / %q", f.Rule, t2, e2)
		}
		et, ee, es := en.Finding(f)
		if et != f.Title || ee != f.Evidence || es != f.Estimated {
			t.Errorf("%s: English changed: %q", f.Rule, et)
		}
	}
	// A finding without messages (a log's, an older recording's) stays English.
	plain := diagnose.Finding{Title: "GPU 0 something", Evidence: "e"}
	if title, ev, _ := zh.Finding(plain); title != plain.Title || ev != "e" {
		t.Errorf("a finding without messages became %q / %q", title, ev)
	}
}

func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff })
}

// digits is the digits of s, sorted: a translation may reorder words and
// numbers, never change a number.
func digits(s string) string {
	d := []rune(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s))
	slices.Sort(d)
	return string(d)
}

// scenarioFindings runs every demo scenario for three minutes at 1 s and
// keeps the first finding of each rule and title message, so every rule
// the simulator can show is rendered.
func scenarioFindings(t *testing.T) []diagnose.Finding {
	t.Helper()
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	var out []diagnose.Finding
	for _, sc := range sim.Scenarios() {
		demo, err := node.NewDemo(sc.ID, 1, start)
		if err != nil {
			t.Fatal(err)
		}
		s := demo.Sampler(sc.ID)
		tr := diagnose.NewTracker(diagnose.Options{})
		for at := start; at.Before(start.Add(3 * time.Minute)); at = at.Add(time.Second) {
			for _, f := range tr.Push(s.Tick(at)) {
				if k := f.Rule + "/" + f.I18n.Title.ID; !seen[k] {
					seen[k] = true
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// TestCausesTranslated: every cause key the NVML probe gives has Chinese,
// and a cause renders as its Chinese followed by what was seen.
func TestCausesTranslated(t *testing.T) {
	src, err := os.ReadFile("../../sampler/nvmlsource/explain.go")
	if err != nil {
		t.Fatal(err)
	}
	keys := regexp.MustCompile(`add\("(\w+)"`).FindAllStringSubmatch(string(src), -1)
	if len(keys) < 6 {
		t.Fatalf("found %d cause keys in explain.go", len(keys))
	}
	zh := For("zh")
	for _, k := range keys {
		if s := zh.T("cause." + k[1]); s == "cause."+k[1] || !hasHan(s) {
			t.Errorf("cause %q has no Chinese", k[1])
		}
	}
	e := &sampler.SourceError{Causes: []string{"English (seen: /.dockerenv)"}, CauseKeys: []string{"container"}, CauseSeen: []string{" (seen: /.dockerenv)"}}
	if got := zh.Cause(e, 0); !strings.HasPrefix(got, "容器启动时没有分配 GPU") || !strings.HasSuffix(got, " (seen: /.dockerenv)") {
		t.Errorf("Chinese cause: %q", got)
	}
	en := For("en")
	if got := en.Cause(e, 0); got != e.Causes[0] {
		t.Errorf("English cause changed: %q", got)
	}
	old := &sampler.SourceError{Causes: []string{"from an older snapshot"}}
	if got := zh.Cause(old, 0); got != "from an older snapshot" {
		t.Errorf("a cause without a key became %q", got)
	}
}

// TestFindingFromAnotherVersion: a message missing a field its Chinese
// uses (a recording from another gpuscope) keeps the finding's English
// rather than printing "<no value>"; a nil Tr is English and never panics.
func TestFindingFromAnotherVersion(t *testing.T) {
	zh := For("zh")
	f := diagnose.Finding{Title: "GPU 0 reported 3 Xid errors", Evidence: "Xid 79 at 10:00:00",
		I18n: &diagnose.FindingText{Title: diagnose.Msg{ID: "xid.title", Args: map[string]string{"GPU": "0"}},
			Evidence: diagnose.Text{{ID: "xid.event", Args: map[string]string{"Code": "79"}}}}}
	if title, ev, _ := zh.Finding(f); title != f.Title || ev != f.Evidence {
		t.Errorf("a message short of a field rendered %q / %q, want the English", title, ev)
	}
	var none *Tr
	if title, _, _ := none.Finding(f); title != f.Title || none.T("x") != "x" || none.N("y", 2) != "y" || none.Lang() != "en" {
		t.Error("a nil Tr is not English")
	}
}

// A fix is translated by the id the finding carries, never by its
// English: a text without an id (the Xid catalogue's advice) stays English.
func TestFixByItsID(t *testing.T) {
	zh := For("zh")
	en := diagnose.FirstFix("sync")
	if got := zh.Fix("sync", en); got == withoutCitations(en) || !strings.Contains(got, "同步") {
		t.Errorf("by id: %q", got)
	}
	if got := zh.Fix("", en); got != withoutCitations(en) {
		t.Errorf("without an id: %q", got)
	}
}

// Fixes reach the reader without "([gpu-idle-handbook] §3.1, …)", which
// nobody can open; what is left reads whole, in both languages.
func TestFixesDropCitationsReadersCannotOpen(t *testing.T) {
	for _, lang := range Langs {
		tr := For(lang)
		for _, id := range diagnose.FixIDs() {
			got := tr.Fix(id, diagnose.FirstFix(id))
			if strings.Contains(got, "[gpu-idle") || strings.Contains(got, "§") || strings.TrimSpace(got) == "" {
				t.Errorf("%s: %q", lang, got)
			}
		}
	}
	en := For("en")
	if got := en.Fix("", "Raise num_workers ([gpu-idle-handbook] §3.1, [gpu-idle-pipeline] §4.1); watch GPU-Util (it moves)"); got != "Raise num_workers; watch GPU-Util (it moves)" {
		t.Errorf("got %q", got)
	}
}
