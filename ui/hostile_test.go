package ui

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/uitest"
)

// hostileCmd is what any user of a shared node can put in a command line:
// retitle every viewer's terminal and clear it.
const hostileCmd = "python \x1b]0;PWNED\a train.py \x1b[2J"

// withHostileProc gives process 6100 (GPU 4) and its user escape sequences,
// without writing to the shared fixture.
func withHostileProc(s sampler.Snapshot) sampler.Snapshot {
	p := *s.Host.Procs[6100]
	p.Cmdline, p.Name, p.User = hostileCmd, "python\x1b[2J", "mal\x1b]0;x\alory"
	procs := map[int]*sampler.Proc{}
	for pid, hp := range s.Host.Procs {
		procs[pid] = hp
	}
	procs[6100] = &p
	h := *s.Host
	h.Procs = procs
	s.Host = &h
	s.Node.Hostname = "node\x1b[2J"
	s.Problems = append(s.Problems[:len(s.Problems):len(s.Problems)], "nvml: \x1b]0;TITLE\a")
	s.GPUs = append([]sampler.GPU(nil), s.GPUs...)
	for gi := range s.GPUs {
		s.GPUs[gi].Procs = append([]sampler.GPUProc(nil), s.GPUs[gi].Procs...)
		for pi := range s.GPUs[gi].Procs {
			if s.GPUs[gi].Procs[pi].PID == 6100 {
				s.GPUs[gi].Procs[pi].Host = &p
			}
		}
	}
	return s
}

// TestHostileCommandLineIsShownNotObeyed: no escape sequence from a process
// reaches the terminal, in the main view, the process pane's detail and the
// GPU detail; the text is still shown, escaped (^[ for ESC, ^G for BEL).
func TestHostileCommandLineIsShownNotObeyed(t *testing.T) {
	m, _ := fixtureModel(0, 200, 60)
	for i := 0; i < 5; i++ {
		m = m.Push(diagnose.Frame{Snapshot: withHostileProc(fixtureSnapshot(i))})
	}
	views := map[string]string{"main": m.View()}
	m = m.paneKey(uitest.Key("5")) // GPU 4's detail lists its processes
	views["gpu detail"] = m.View()
	for name, v := range views {
		if strings.ContainsAny(v, "\x1b\a") {
			t.Errorf("%s view sends a control character to the terminal:\n%q", name, v)
		}
	}
	if !strings.Contains(views["main"], "^[]0;PWNED^G") && !strings.Contains(views["main"], "mal^[]0;x^Glory") {
		t.Errorf("the hostile process is not shown escaped:\n%s", views["main"])
	}
}

// TestHostileFindingArgsInChinese: a finding's message arguments (a command
// line quoted in its evidence) are escaped like its English text, so the
// Chinese rendering sends no control character either.
func TestHostileFindingArgsInChinese(t *testing.T) {
	m, _ := fixtureModelWith(0, 200, 60, func(o *Options) { o.Tr = i18n.For("zh") })
	f := diagnose.Finding{Rule: diagnose.RuleInputStarved, Severity: diagnose.Warning, GPU: 4, PID: 6100,
		Title: "GPU 4 starved", Evidence: hostileCmd,
		I18n: &diagnose.FindingText{Title: diagnose.Msg{ID: "input_starved.title", Args: map[string]string{"GPU": "4"}},
			Evidence: diagnose.Text{{ID: "ev.who", Args: map[string]string{"Who": hostileCmd}},
				{ID: "idle_held.holds", Args: map[string]string{"Held": "1 GiB", "Pct": "1%", "Total": "9 GiB"},
					Words: map[string]diagnose.Msg{"Who": {ID: "ev.who", Args: map[string]string{"Who": "\x1b[2J"}}}}}}}
	for i := 0; i < 3; i++ {
		s := fixtureSnapshot(i)
		m = m.Push(diagnose.Frame{Snapshot: s, Diagnosis: &diagnose.Diagnosis{At: s.Time, Findings: []diagnose.Finding{f}}})
	}
	views := map[string]string{"main": m.View()}
	views["finding page"] = press(m, "tab", "enter").View()
	for name, v := range views {
		if strings.ContainsAny(v, "\x1b\a") {
			t.Errorf("%s sends a control character to the terminal:\n%q", name, v)
		}
		if !strings.Contains(v, "吃不饱") || !strings.Contains(v, "^[]0;PWNED^G") {
			t.Errorf("%s does not show the Chinese finding with its argument escaped:\n%s", name, v)
		}
	}
}
