package docs

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// citationKey matches a citation such as "[gpu-idle-pipeline]" or "[nvml-api]":
// a bracketed lower-case word with at least one hyphen, so that markdown link
// text and checkboxes are not mistaken for citations.
var citationKey = regexp.MustCompile(`\[([a-z0-9]+(?:-[a-z0-9]+)+)\]`)

// referenceKeys returns the keys that docs/references.md defines, one per
// "### [key]" heading.
func referenceKeys(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("references.md")
	if err != nil {
		t.Fatalf("reading docs/references.md: %v", err)
	}
	keys := map[string]bool{}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "### "); ok {
			if m := citationKey.FindStringSubmatch(rest); m != nil && m[0] == rest {
				keys[m[1]] = true
			}
		}
	}
	if len(keys) < 10 {
		t.Fatalf("docs/references.md defines %d keys; want the full list", len(keys))
	}
	return keys
}

// citingDocs returns every page that may cite a source: the embedded playbook
// pages (all languages) and the Markdown files of docs/.
func citingDocs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(pagesFS, "playbook", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := fs.ReadFile(pagesFS, p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatalf("walking the playbook: %v", err)
	}
	mds, err := fs.Glob(os.DirFS("."), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range mds {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(b)
	}
	return out
}

func TestEveryCitationKeyIsInReferences(t *testing.T) {
	keys := referenceKeys(t)
	for p, text := range citingDocs(t) {
		for _, m := range citationKey.FindAllStringSubmatch(withoutCode(text), -1) {
			if !keys[m[1]] {
				t.Errorf("%s cites [%s], which docs/references.md does not define", p, m[1])
			}
		}
	}
}

// TestNoRepoInternalCitations keeps out the citation styles that mean nothing
// outside this repository: seed file numbers, the internal research notes and
// an unexplained "chosen here".
func TestNoRepoInternalCitations(t *testing.T) {
	internal := regexp.MustCompile(`(?i)seed 00\d|anchors §|diagnosis-anchors|(^|[^a-z])research/|chosen here`)
	for p, text := range citingDocs(t) {
		if m := internal.FindString(text); m != "" {
			t.Errorf("%s cites %q; cite a key from docs/references.md instead", p, m)
		}
	}
}

func TestArticleSectionsCitedExist(t *testing.T) {
	b, err := os.ReadFile("references.md")
	if err != nil {
		t.Fatal(err)
	}
	// The section tables: "| 2.1 | heading | gloss |" under each article's heading.
	sections := map[string]map[string]bool{}
	current := ""
	row := regexp.MustCompile(`^\| (\d+(?:\.\d+)?) \|`)
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "### [") {
			current = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "### ["), "]")
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && current != "" {
			if sections[current] == nil {
				sections[current] = map[string]bool{}
			}
			sections[current][m[1]] = true
		}
	}
	for _, article := range []string{"gpu-idle-pipeline", "gpu-idle-handbook"} {
		if len(sections[article]) < 20 {
			t.Fatalf("references.md lists %d sections for [%s]; want its section table", len(sections[article]), article)
		}
	}
	// "[key] §2.1, §3.4–3.5, §7 (table)": every § number after an article key,
	// up to the next key, must be a section of that article.
	cite := regexp.MustCompile(`\[(gpu-idle-pipeline|gpu-idle-handbook)\]([^\[]*)`)
	num := regexp.MustCompile(`§(\d+(?:\.\d+)?)(?:[–-](\d+(?:\.\d+)?))?`)
	for p, text := range citingDocs(t) {
		if p == "references.md" {
			continue
		}
		for _, c := range cite.FindAllStringSubmatch(text, -1) {
			for _, n := range num.FindAllStringSubmatch(c[2], -1) {
				for _, s := range n[1:] {
					if s != "" && !sections[c[1]][s] {
						t.Errorf("%s cites [%s] §%s, which the article does not have", p, c[1], s)
					}
				}
			}
		}
	}
}

// withoutCode blanks fenced blocks and inline code spans, where brackets are
// shell or config syntax (`[container-id]`), not citations.
func withoutCode(text string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			b.WriteString("\n")
			continue
		}
		if fenced {
			b.WriteString("\n")
			continue
		}
		b.WriteString(inlineCode.ReplaceAllString(line, "``"))
	}
	return b.String()
}

var inlineCode = regexp.MustCompile("`[^`]*`")
