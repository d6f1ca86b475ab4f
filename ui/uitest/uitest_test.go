package uitest

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Key's messages print as the name they were made from, as the dashboard
// matches them (key.Matches compares msg.String()).
func TestKeyRoundTrips(t *testing.T) {
	for _, s := range []string{"tab", "shift+tab", "enter", "esc", "up", "down", "left", "right", "home", "end",
		"pgup", "pgdown", "backspace", "ctrl+c", "q", "K", "/", "?", "+"} {
		if got := Key(s).String(); got != s {
			t.Errorf("Key(%q).String() = %q", s, got)
		}
	}
	if got := Key("space").String(); got != " " {
		t.Errorf("space prints %q", got)
	}
}

type counter struct{ n int }

func (c counter) Init() tea.Cmd                       { return nil }
func (c counter) Update(tea.Msg) (tea.Model, tea.Cmd) { c.n++; return c, nil }
func (c counter) View() string                        { return "" }

func TestPressSendsEveryKey(t *testing.T) {
	if got := Press(counter{}, "a", "b", "tab"); got.n != 3 {
		t.Errorf("%d updates, want 3", got.n)
	}
}
