package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// The dashboard 200 s into the mixed node, paused, over its timeline.
func TestGoldenReplay(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newReplay(t, Options{Paused: true, Speed: 2, Name: "mixed.jsonl"}, sz.w, sz.h)
			for range 20 {
				m = press(t, m, "]")
			}
			v := m.View()
			lines := strings.Split(v, "\n")
			if len(lines) != sz.h {
				t.Fatalf("%d lines, want %d", len(lines), sz.h)
			}
			for _, want := range []string{"REPLAY", "14:03:20", "⏸ 2×", "(snapshot 201/300)", "H200"} {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q", want)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}
