package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Under --nodes, enter opens a node's dashboard over the snapshots kept
// from its scrapes, as it does over Prometheus's: its processes and its
// own finding included, the badge saying where the data comes from.
func TestNodesFleetOpensANode(t *testing.T) {
	body, err := os.ReadFile("../../sampler/promtext/testdata/gpuscope-serve.prom")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	targets, err := promsource.ParseTargets(strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := themes.Build("mono", false)
	f := dashFlags{interval: 10 * time.Millisecond, tr: i18n.For("en")}
	var m tea.Model = fleetModel(promsource.NewDirect(targets, time.Second, ""), f, st)
	step := func(msg tea.Msg) tea.Cmd {
		next, cmd := m.Update(msg)
		m = next
		return cmd
	}
	step(tea.WindowSizeMsg{Width: 140, Height: 50})
	if out := m.View(); !strings.Contains(out, "scraping the nodes") {
		t.Errorf("before the first scrape:\n%s", out)
	}
	step(m.Init()())
	if out := m.View(); !strings.Contains(out, "› gpu-node-44") || !strings.Contains(out, "input_starved(GPU 0)") || !strings.Contains(out, "history: ") {
		t.Fatalf("fleet view:\n%s", out)
	}
	cmd := step(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter fetched nothing")
	}
	step(cmd())
	out := m.View()
	for _, want := range []string{"SCRAPE gpu-node-44", "python", "driver 550.54.15"} {
		if !strings.Contains(out, want) {
			t.Errorf("the node's dashboard lacks %q:\n%s", want, out)
		}
	}
}
