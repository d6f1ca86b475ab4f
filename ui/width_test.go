package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCellWidthIsStringWidth holds every rune of cellWidth's tables to
// ansi.StringWidth, alone and between ASCII letters and styled text (a
// rune that joined a neighbour into one cluster would count otherwise).
func TestCellWidthIsStringWidth(t *testing.T) {
	n := 0
	for r := rune(0x80); r <= 0xffff; r++ {
		if !oneCell(r) && !twoCells(r) {
			continue
		}
		n++
		s := string(r)
		for _, in := range []string{s, "a" + s + "b", s + s, "\x1b[1;38;5;12m" + s + "\x1b[0m" + s + "─", "│" + s + "\u00b7"} {
			if got, want := cellWidth(in), ansi.StringWidth(in); got != want {
				t.Fatalf("cellWidth(%q) = %d, ansi.StringWidth = %d", in, got, want)
			}
		}
	}
	if n < 900 {
		t.Fatalf("only %d runes in the tables", n)
	}
}

// TestCellWidthFallsBack: what the tables leave out is measured by
// ansi.StringWidth whole, so the widths agree.
func TestCellWidthFallsBack(t *testing.T) {
	for _, s := range []string{
		"", "plain", "e\u0301", "👍🏽 ok", "⚠\ufe0f", "a\tb", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
		"\x1b[31", "\x1b[31\x07m", "\x1b(B", "🇩🇪", "한글", "a\u200db", "\x7f", "日本語", "█▇▆",
		strings.Repeat("─", 40) + "\x1b[38;2;1;2;3mx\x1b[m",
	} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

func FuzzCellWidth(f *testing.F) {
	for _, s := range []string{"", "gpu ─ 12%", "\x1b[1mGPU\x1b[0m ▁▂█", "训练 ·", "e\u0301", "\x1b[38;5;1", "👍🏽"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("cellWidth(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	})
}

// BenchmarkCellWidth measures a styled row of the GPU pane both ways.
func BenchmarkCellWidth(b *testing.B) {
	row := "\x1b[38;5;75m│\x1b[0m 0 H200 \x1b[1m 87%\x1b[0m \x1b[38;5;2m▁▂▃▅▇█▇▅\x1b[0m 61°C 540W ·  " + strings.Repeat("─", 60)
	b.Run("cellWidth", func(b *testing.B) {
		for b.Loop() {
			cellWidth(row)
		}
	})
	b.Run("ansi.StringWidth", func(b *testing.B) {
		for b.Loop() {
			ansi.StringWidth(row)
		}
	})
}
