package ui

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/muesli/termenv"
)

// flusher writes frames as Bubble Tea v1's standard renderer does in the
// alt screen (standard_renderer.go, flush): home, each line written whole
// (cut to the width, erased to its end when shorter) or skipped when equal
// to the last frame's, an erase below when fewer lines, the cursor under
// the last line. A repaint starts its first line with "\r".
type flusher struct {
	w, h int
	last []string
}

func (f *flusher) frame(view string) string {
	var b strings.Builder
	b.WriteString(ansi.CursorHomePosition)
	lines := strings.Split(view, "\n")
	if len(lines) > f.h {
		lines = lines[len(lines)-f.h:]
	}
	for i, line := range lines {
		if i < len(f.last) && f.last[i] == line {
			if i < len(lines)-1 {
				b.WriteByte('\n')
			}
			continue
		}
		if i == 0 && f.last == nil {
			b.WriteByte('\r')
		}
		line = ansi.Truncate(line, f.w, "")
		if ansi.StringWidth(line) < f.w {
			line += ansi.EraseLineRight
		}
		b.WriteString(line)
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	if len(f.last) > len(lines) {
		b.WriteString(ansi.EraseScreenBelow)
	}
	b.WriteString(ansi.CursorPosition(0, len(lines)))
	f.last = lines
	return b.String()
}

// cell is one grapheme on the screen: its text, its width in columns and
// the SGR sequences in force when it was written.
type cell struct {
	text, sgr string
	width     int
}

// screen is a terminal as far as the frames use one: cells of text and the
// SGR in force when each was written; CUP, home, CR, LF, EL, ED and SGR.
type screen struct {
	w, h, x, y int
	sgr        string
	cells      [][]cell
}

func newScreen(w, h int) *screen {
	s := &screen{w: w, h: h, cells: make([][]cell, h)}
	for y := range s.cells {
		s.cells[y] = make([]cell, w)
	}
	return s
}

func (s *screen) erase(y, from int) {
	for x := from; x < s.w; x++ {
		s.cells[y][x] = cell{text: " ", sgr: s.sgr}
	}
}

func (s *screen) write(t *testing.T, b string) {
	t.Helper()
	for len(b) > 0 {
		switch b[0] {
		case '\r':
			s.x, b = 0, b[1:]
			continue
		case '\n':
			s.y, b = min(s.y+1, s.h-1), b[1:]
			continue
		case 0x1b:
			j := 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			if b[1] != '[' || j == len(b) {
				t.Fatalf("screen: unknown sequence %q", b)
			}
			args := b[2:j]
			switch b[j] {
			case 'm':
				if args == "" || args == "0" {
					s.sgr = ""
				} else {
					s.sgr += b[:j+1]
				}
			case 'H':
				r, c, _ := strings.Cut(args, ";")
				row, _ := strconv.Atoi(r)
				col, _ := strconv.Atoi(c)
				s.y, s.x = max(row, 1)-1, max(col, 1)-1
			case 'K':
				s.erase(s.y, s.x)
			case 'J':
				s.erase(s.y, s.x)
				for y := s.y + 1; y < s.h; y++ {
					s.erase(y, 0)
				}
			default:
				t.Fatalf("screen: unknown sequence %q", b[:j+1])
			}
			b = b[j+1:]
			continue
		}
		g, w := ansi.FirstGraphemeCluster(b, ansi.GraphemeWidth)
		if w > 0 && s.x+w <= s.w {
			s.cells[s.y][s.x] = cell{text: g, sgr: s.sgr, width: w}
			if w == 2 {
				s.cells[s.y][s.x+1] = cell{sgr: s.sgr}
			}
		}
		s.x = min(s.x+w, s.w)
		b = b[len(g):]
	}
}

// checkFrames flushes each view as Bubble Tea would, through a TermWriter
// and directly, and requires the two screens equal after every frame; it
// returns the bytes each way.
func checkFrames(t *testing.T, w, h int, views []string) (direct, diffed int) {
	t.Helper()
	f := &flusher{w: w, h: h}
	a, b := newScreen(w, h), newScreen(w, h)
	tw := &TermWriter{}
	for i, v := range views {
		fr := f.frame(v)
		out, ok := tw.frame(fr)
		if !ok {
			out = []byte(fr)
		}
		a.write(t, fr)
		b.write(t, string(out))
		direct, diffed = direct+len(fr), diffed+len(out)
		for y := range a.cells {
			for x := range a.cells[y] {
				if a.cells[y][x] != b.cells[y][x] {
					t.Fatalf("frame %d: row %d col %d is %+v, Bubble Tea's own frame drew %+v\nframe: %q\nwritten: %q",
						i, y+1, x+1, b.cells[y][x], a.cells[y][x], fr, out)
				}
			}
		}
		if a.sgr != "" && b.sgr != "" && a.sgr != b.sgr {
			t.Fatalf("frame %d: ends in SGR %q, Bubble Tea's own in %q", i, b.sgr, a.sgr)
		}
	}
	return direct, diffed
}

// The dashboard in colour through a minute of snapshots, a page opened
// and closed, focus moved: every frame draws the screen Bubble Tea's own
// would, in fewer bytes.
func TestTermWriterDrawsWhatBubbleTeaDraws(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	m, _ := fixtureModel(120, 200, 50)
	st, err := themes.Build("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	*m.c.st = st
	m.invalidateAll()
	var views []string
	for i := range 60 {
		m = push(m, fixtureSnapshot(120+i))
		switch i {
		case 20:
			m = press(m, "1")
		case 25:
			m = press(m, "esc")
		case 30:
			m = press(m, "tab", "down")
		case 40:
			m = press(m, "?")
		case 42:
			m = press(m, "?")
		}
		views = append(views, m.View())
	}
	direct, diffed := checkFrames(t, 200, 50, views)
	t.Logf("%d frames: %d bytes as Bubble Tea writes them, %d through TermWriter", len(views), direct, diffed)
	if diffed >= direct {
		t.Errorf("TermWriter wrote %d bytes, Bubble Tea's own frames %d", diffed, direct)
	}
}

// Lines that change width, wide characters, styles that end mid-line and
// lines that come and go.
func TestTermWriterEdgeLines(t *testing.T) {
	red, bold := "\x1b[31m", "\x1b[1m"
	views := []string{
		"abc\n" + red + "def" + "\x1b[0m\nGPU 0  util  98%",
		"abd\n" + red + "deg\x1b[0m\nGPU 0  util   7%",
		"显存 12G\n" + red + bold + "x" + "\x1b[0m y\nGPU 0  util 100%",
		"显存 13G\nx y\nGPU 0",
		"显存 13G",
		"a\x1b[31mb\nc\u0301d\n\tx", // a tab and a combining mark: written whole
		"a\x1b[32mb\nc\u0301e\n\ty",
		"",
		"z",
	}
	checkFrames(t, 20, 4, views)
}

// FuzzTermWriter: any two views draw the same through the writer.
func FuzzTermWriter(f *testing.F) {
	f.Add("abc\ndef", "abd\ndef\nx")
	f.Add("\x1b[31mred\x1b[0m", "\x1b[31mrEd\x1b[0m")
	f.Add("显存 12G", "显存 13G")
	f.Add("\x1b]8;;x\x1b\\l\x1b]8;;\x1b\\", "q")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, v := range []string{a, b} {
			if strings.ContainsAny(v, "\r\x1b") && !strings.Contains(v, "\x1b[") || strings.ContainsFunc(v, func(r rune) bool { return (r < 0x20 || r == 0x7f) && r != '\n' && r != 0x1b }) {
				t.Skip("the views Bubble Tea gets hold printable text and CSI sequences")
			}
			if strings.Contains(v, "\x1b") && (strings.Count(v, "\x1b") != strings.Count(v, "\x1b[") || !sgrOnly(v)) {
				t.Skip()
			}
		}
		checkFrames(t, 12, 4, []string{a, b, a})
	})
}

// sgrOnly: every sequence in v is a complete SGR.
func sgrOnly(v string) bool {
	for {
		i := strings.Index(v, "\x1b[")
		if i < 0 {
			return true
		}
		v = v[i+2:]
		j := strings.IndexFunc(v, func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		if j < 0 || v[j] != 'm' || strings.Trim(v[:j], "0123456789;") != "" {
			return false
		}
		v = v[j+1:]
	}
}

// TermWriter keeps a *os.File's Fd, so Bubble Tea still finds a terminal.
func TestTermWriterIsAFile(t *testing.T) {
	var f interface{ Fd() uintptr } = NewTermWriter(os.Stdout)
	if f.Fd() != os.Stdout.Fd() {
		t.Fatal("Fd is not the file's")
	}
}

// BenchmarkTermWriterFrame: the cost of diffing one frame of the coloured
// dashboard after a new snapshot.
func BenchmarkTermWriterFrame(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	m, _ := fixtureModel(120, 200, 50)
	st, _ := themes.Build("dark", true)
	*m.c.st = st
	m.invalidateAll()
	var frames []string
	f := &flusher{w: 200, h: 50}
	for i := range 20 {
		m = push(m, fixtureSnapshot(120+i))
		frames = append(frames, f.frame(m.View()))
	}
	tw := &TermWriter{}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		tw.frame(frames[1+i%19])
		i++
	}
}

// TestTermWriterWriteStringIsWrite: a frame handed over as a string (the
// Painter's io.WriteString) is reduced as the same frame written as bytes,
// not passed by through the embedded file's WriteString.
func TestTermWriterWriteStringIsWrite(t *testing.T) {
	dir := t.TempDir()
	open := func(name string) *os.File {
		f, err := os.Create(dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	fb, fs := open("bytes"), open("string")
	wb, ws := NewTermWriter(fb), NewTermWriter(fs)
	fl := &flusher{w: 40, h: 3}
	total := 0
	for i := range 5 {
		fr := fl.frame(fmt.Sprintf("head\nrow %d of five\nfoot", i))
		total += len(fr)
		if _, err := wb.Write([]byte(fr)); err != nil {
			t.Fatal(err)
		}
		if n, err := io.WriteString(ws, fr); err != nil || n != len(fr) {
			t.Fatalf("WriteString: %d, %v", n, err)
		}
	}
	_, _ = wb.WriteString("\x1b[?25h") // not a frame: as written, both ways
	_, _ = ws.Write([]byte("\x1b[?25h"))
	b, _ := os.ReadFile(fb.Name())
	s, _ := os.ReadFile(fs.Name())
	if string(b) != string(s) || len(s) >= total {
		t.Fatalf("as bytes %q, as a string %q (frames were %d bytes)", b, s, total)
	}
}

// TestBlockAtIsTheBlockRunes: blockAt tells box drawing, block elements
// and braille from every other rune by their bytes, as decoding them would.
func TestBlockAtIsTheBlockRunes(t *testing.T) {
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		want := r >= 0x2500 && r <= 0x259f || r >= 0x2800 && r <= 0x28ff
		if got := blockAt(string(r) + "x"); got != want {
			t.Fatalf("U+%04X: blockAt %v", r, got)
		}
	}
	for _, s := range []string{"", "\xe2", "\xe2\x94", "\xe2\x94\x7f", "\xe2\x94\xc0"} {
		if blockAt(s) {
			t.Fatalf("%q: blockAt of a broken rune", s)
		}
	}
}
