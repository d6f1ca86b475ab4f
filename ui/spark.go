package ui

import (
	"math"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
)

// sparkBlocks are the eight bar heights of a one-line sparkline.
var sparkBlocks = []rune(" ▁▂▃▄▅▆▇█")

// drawSparkline draws values (oldest first, newest at the right edge) as w
// one-line bars scaled to [0, top]; shorter history leaves the left blank.
// Zero is blank and any activity shows at least one eighth, so "idle" and
// "a little" differ.
//
// Written here rather than with ntcharts' sparkline: its canvas styles every
// cell separately, which measured ~0.45 ms per 90-column sparkline and put
// a 200×50 redraw at 4 ms against the 2 ms View budget (docs/benchmarks.md,
// Summary and "View"); this one styles the whole run once.
func drawSparkline(values []float64, w int, top float64, style lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	return style.Render(sparkBars(values, w, top))
}

// sparkBars is the sparkline's w cells before styling.
func sparkBars(values []float64, w int, top float64) string {
	return string(appendBars(nil, values, w, top))
}

// appendBars appends the sparkline's w cells to b.
func appendBars(b []byte, values []float64, w int, top float64) []byte {
	if len(values) > w {
		values = values[len(values)-w:]
	}
	for range w - len(values) {
		b = append(b, ' ')
	}
	for _, v := range values {
		b = utf8.AppendRune(b, sparkBlocks[sparkLevel(v, top)])
	}
	return b
}

// drawnSpark is one place's sparkline as last drawn, always in the same
// style: at --interval 100ms the GPU pane is drawn ten times a second, and
// its bars mostly stay the same (the history keeps a point a second, the
// newest changes within its eighth), so the style is applied only to bars
// that changed (docs/benchmarks.md, "The dashboard at 100 ms"), and the
// bars are laid out in a buffer kept for it, a string made only when
// they changed ("The dashboard at 100 ms, again").
type drawnSpark struct {
	bars, out string
	buf       []byte
	// What drawSeries last drew from: the history at its generation, the
	// width and top; older is how many bytes of buf the bars before the
	// newest take, level the newest's (docs/benchmarks.md, "The dashboard
	// at 100 ms, the third time").
	h            *history
	gen          uint64
	w, older, lv int
	top          float64
}

// draw is drawSparkline(values, w, top, style), reusing the last drawing
// when the bars are the same.
func (d *drawnSpark) draw(values []float64, w int, top float64, style *lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	d.buf = appendBars(d.buf[:0], values, w, top)
	if string(d.buf) != d.bars || d.out == "" {
		d.bars = string(d.buf)
		d.out = style.Render(d.bars)
	}
	return d.out
}

// drawSeries is draw of f over h's newest w entries (history.series).
// While h changed only its newest entry since the last call, the bars
// before the last are the ones drawn then: only the newest entry is read,
// and the drawing is reused when its bar is the same. At --interval 100ms
// nine frames in ten are such, where each read ~150 history points a GPU.
func (d *drawnSpark) drawSeries(h *history, w int, top float64, style *lipgloss.Style, buf *[]float64, f func(i int) sampler.Metric) string {
	n := h.len()
	if w > 0 && n > 0 && d.h == h && d.gen == h.gen && d.w == w && d.top == top && d.out != "" {
		lv := sparkLevel(f(n-1).Or(0), top)
		if lv != d.lv {
			d.buf, d.lv = utf8.AppendRune(d.buf[:d.older], sparkBlocks[lv]), lv
			d.bars = string(d.buf)
			d.out = style.Render(d.bars)
		}
		return d.out
	}
	*buf = h.series((*buf)[:0], w, f)
	out := d.draw(*buf, w, top, style)
	d.h = nil
	if w > 0 && n > 0 {
		d.lv = sparkLevel((*buf)[len(*buf)-1], top)
		d.h, d.gen, d.w, d.top, d.older = h, h.gen, w, top, len(d.buf)-utf8.RuneLen(sparkBlocks[d.lv])
	}
	return out
}

// sparkLevel maps v in [0, top] to 0..8.
func sparkLevel(v, top float64) int {
	if v <= 0 || top <= 0 || math.IsNaN(v) {
		return 0
	}
	return int(min(max(math.Round(v/top*8), 1), 8))
}
