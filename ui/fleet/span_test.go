package fleet

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Without a server the header says how much history the windowed figures
// cover; with one (Span 0) it says nothing.
func TestSpanNote(t *testing.T) {
	l := words{i18n.For("en")}
	if got := l.span(fleetsnap.Fleet{Span: 2*time.Minute + 400*time.Millisecond}); got != "history: 2m scraped so far, no server keeps more: WASTE 1h, ENERGY 1h and the 5m means cover only that" {
		t.Errorf("span note: %q", got)
	}
	if got := l.span(fleetsnap.Fleet{}); got != "" {
		t.Errorf("a server's fleet got a span note: %q", got)
	}
	if shortDur(time.Hour) != "1h" || shortDur(90*time.Second) != "1m30s" {
		t.Errorf("shortDur: %s %s", shortDur(time.Hour), shortDur(90*time.Second))
	}
}
