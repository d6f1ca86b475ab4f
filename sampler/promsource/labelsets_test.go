package promsource

import (
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/promtext"
)

// A node's label sets share their common pairs, each set reads back as
// its labels, and the same text finds the same set.
func TestLabelSets(t *testing.T) {
	texts := []string{
		`Hostname="n1",UUID="GPU-a",gpu="0",modelName="H200"`,
		`Hostname="n1",UUID="GPU-b",gpu="1",modelName="H200"`,
		`Hostname="n1",UUID="GPU-a",err_msg="No Error",gpu="0",modelName="H200"`,
		` command="a \"b\", c\\",pid = "7" ,`, // escapes, a comma and braces in a value, spaces
		`cmd="}{,=\""`,
		``,
	}
	var l labelSets
	var ids []uint16
	for _, text := range texts {
		ids = append(ids, l.index(text))
	}
	for i, text := range texts {
		if got := l.index(text); got != ids[i] {
			t.Errorf("%q: set %d, then %d", text, ids[i], got)
		}
		want, err := promtext.Labels(text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := promtext.Labels(l.text(ids[i]))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q reads back as %q (%v), want %v", text, l.text(ids[i]), err, want)
		}
		var pairs []promtext.Label
		for _, p := range l.setPairs(ids[i]) {
			name, value := pairLabel(l.pairs[p])
			pairs = append(pairs, promtext.Label{Name: name, Value: value})
		}
		if !slices.Equal(pairs, want) {
			t.Errorf("%q: its pairs read %q, want %q", text, pairs, want)
		}
	}
	if l.len() != len(texts) || len(l.pairs) != 10 {
		t.Errorf("%d sets of %d pairs %q; want %d sets of 10 pairs", l.len(), len(l.pairs), l.pairs, len(texts))
	}
}
