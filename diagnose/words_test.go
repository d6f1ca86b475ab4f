package diagnose

import "testing"

// The Engine's words: a finding whose messages are the same as the
// evaluation before keeps its English (the same FindingText), one whose
// printed values changed is worded again, and one not seen in an
// evaluation is forgotten.
func TestWordsKeptWhileMessagesSame(t *testing.T) {
	var w words
	k := Key{RuleThermalThrottle, 0, 0}
	msgs := func(temp string) (Msg, Text) {
		return say("thermal.title_hw", "GPU {{.GPU}} hardware slowdown", "GPU", 0),
			Text{say("thermal.temp", "temp max {{.Temp}} °C", "Temp", temp), say("ev.who", "{{.Who}}", "Who", procWho(0, nil)),
				say("thermal.hw", "{{.Reasons}} active in {{.N}} of {{.Samples}} {{plural .Samples \"sample\" \"samples\"}}", "Reasons", "hw_slowdown", "N", 1, "Samples", 1)}
	}
	title, ev := msgs("91")
	t1, e1, _, ft1 := w.word(k, title, ev, nil)
	if t1 != "GPU 0 hardware slowdown" || e1 != "temp max 91 °C; an unlisted process; hw_slowdown active in 1 of 1 sample" {
		t.Fatalf("worded %q / %q", t1, e1)
	}
	w.prune()
	title, ev = msgs("91")
	if _, _, _, ft2 := w.word(k, title, ev, nil); ft2 != ft1 {
		t.Error("the same messages were worded again")
	}
	w.prune()
	title, ev = msgs("92")
	_, e3, _, ft3 := w.word(k, title, ev, nil)
	if ft3 == ft1 || e3 != "temp max 92 °C; an unlisted process; hw_slowdown active in 1 of 1 sample" {
		t.Errorf("a changed value kept the old words: %q", e3)
	}
	if got := ft3.Evidence[0].English(); got != "temp max 92 °C" {
		t.Errorf("message English %q", got)
	}
	w.prune()
	w.prune() // an evaluation without the finding
	if len(w.last) != 0 {
		t.Errorf("%d findings kept after an evaluation without them", len(w.last))
	}
}
