package themes

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestBuildEveryName(t *testing.T) {
	for _, name := range Names() {
		for _, colorful := range []bool{true, false} {
			s, err := Build(name, colorful)
			if err != nil {
				t.Fatalf("Build(%q, %v): %v", name, colorful, err)
			}
			if s.Name != name {
				t.Errorf("Build(%q).Name = %q", name, s.Name)
			}
			wantColour := colorful && name != "mono"
			if s.Colorful != wantColour {
				t.Errorf("Build(%q, %v).Colorful = %v, want %v", name, colorful, s.Colorful, wantColour)
			}
			if !wantColour && s.Palette != (Palette{}) {
				t.Errorf("Build(%q, %v) keeps colours: %+v", name, colorful, s.Palette)
			}
		}
	}
}

func TestBuildDefault(t *testing.T) {
	s, err := Build("", true)
	if err != nil || s.Name != Default {
		t.Fatalf("Build(\"\") = %q, %v; want the default %q", s.Name, err, Default)
	}
}

func TestNamesHasBuiltins(t *testing.T) {
	got := strings.Join(Names(), ",")
	if got != "dark,light,mono" {
		t.Fatalf("Names() = %s", got)
	}
}

func TestUnknownThemeListsNames(t *testing.T) {
	_, err := Build("solarized", true)
	if err == nil {
		t.Fatal("Build(solarized) succeeded; want an error")
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
}

func TestPalettesDiffer(t *testing.T) {
	d, _ := Build("dark", true)
	l, _ := Build("light", true)
	m, _ := Build("mono", true)
	if d.Palette == l.Palette {
		t.Error("dark and light palettes are identical")
	}
	if m.Palette != (Palette{}) {
		t.Errorf("mono has colours: %+v", m.Palette)
	}
	if d.Palette.Crit == "" || d.Palette.OK == d.Palette.Crit {
		t.Errorf("dark must tell OK from Crit: %+v", d.Palette)
	}
}

// TestColourOnlyWhenColourful renders with a true-colour profile: dark
// emits colour codes, mono and colorful=false only attributes.
func TestColourOnlyWhenColourful(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	dark, _ := Build("dark", true)
	if out := dark.Crit.Render("x"); !strings.Contains(out, "38;2;") {
		t.Errorf("dark crit has no colour: %q", out)
	}
	for _, s := range []Styles{must(Build("mono", true)), must(Build("dark", false))} {
		for _, st := range []lipgloss.Style{s.Crit, s.OK, s.Warn, s.BadgeOK, s.Title} {
			if out := st.Render("x"); strings.Contains(out, "38;") || strings.Contains(out, "48;") {
				t.Errorf("%s (colourful=%v) emits colour: %q", s.Name, s.Colorful, out)
			}
		}
		if out := s.BadgeOK.Render("LIVE"); !strings.Contains(out, "\x1b[") {
			t.Errorf("%s badge has no attribute at all: %q", s.Name, out)
		}
	}
}

func must(s Styles, err error) Styles {
	if err != nil {
		panic(err)
	}
	return s
}

// On a 256-colour terminal the styles carry the palette's colours already
// converted (termColor), and draw what lipgloss's own conversion of the
// "#rrggbb" colour draws, on every render.
func TestColoursConvertedOnceDrawTheSame(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	for _, name := range Names() {
		s, err := Build(name, true)
		if err != nil {
			t.Fatal(err)
		}
		for what, c := range map[string]string{"Warn": s.Palette.Warn, "Muted": s.Palette.Muted, "Accent": s.Palette.Accent} {
			if c == "" {
				continue
			}
			got := map[string]lipgloss.Style{"Warn": s.Warn, "Muted": s.Muted, "Accent": s.Accent}[what].Render("x")
			want := lipgloss.NewStyle().Foreground(lipgloss.Color(c)).Render("x")
			if got != want {
				t.Errorf("%s %s (%s): %q, lipgloss converting each render draws %q", name, what, c, got, want)
			}
			if _, hex := s.Warn.GetForeground().(lipgloss.Color); hex && name != "mono" {
				t.Errorf("%s: Warn's colour is still %v, converted on every render", name, s.Warn.GetForeground())
			}
		}
	}
}
