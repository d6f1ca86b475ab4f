package fleet

import (
	"cmp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// keyMap is the fleet view's keys, declared once with bubbles/key as the
// dashboard's (ui/keymap.go): s, S and / mean there what they mean here.
// With a node open, every key but b goes to that node's dashboard.
type keyMap struct {
	Quit, ForceQuit, Up, Down key.Binding
	Enter, Back               key.Binding
	Sort, SortReverse, Filter key.Binding
	FilterKeep, FilterClear   key.Binding
}

func defaultKeyMap() keyMap {
	b := func(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }
	return keyMap{
		Quit: b("q", "ctrl+c"), ForceQuit: b("ctrl+c"), Up: b("up", "k"), Down: b("down", "j"), Enter: b("enter"), Back: b("b"),
		Sort: b("s"), SortReverse: b("S"), Filter: b("/"),
		FilterKeep: b("enter"), FilterClear: b("esc"),
	}
}

// sortKey is one order of the rows. less sorts the default direction
// (the one a user looks for first: most waste, least busy, …), ascending
// when asc (the label's arrow says which); S reverses.
type sortKey struct {
	name string
	asc  bool
	less func(a, b *fleetsnap.Node) int
}

// sortKeys are the orders s cycles through, waste first as the fleet
// arrives. Down nodes sort last in every order but name: their GPUs are
// unknown, not idle.
var sortKeys = []sortKey{
	{"waste", false, func(a, b *fleetsnap.Node) int { return cmp.Compare(b.WasteGPUHours, a.WasteGPUHours) }},
	{"name", true, func(a, b *fleetsnap.Node) int { return cmp.Compare(a.Name, b.Name) }},
	{"util", true, func(a, b *fleetsnap.Node) int { return cmp.Compare(meanUtil(a), meanUtil(b)) }},
	{"memory", false, func(a, b *fleetsnap.Node) int { return cmp.Compare(heldBytes(b), heldBytes(a)) }},
	{"findings", false, func(a, b *fleetsnap.Node) int { return cmp.Compare(len(b.Findings), len(a.Findings)) }},
}

// meanUtil is the mean utilisation of the GPUs that report one (101 when
// none does: they sort after every known figure).
func meanUtil(n *fleetsnap.Node) float64 {
	sum, k := 0.0, 0
	for _, g := range n.GPUs {
		if g.Util.OK {
			sum, k = sum+g.Util.V, k+1
		}
	}
	if k == 0 {
		return 101
	}
	return sum / float64(k)
}

func heldBytes(n *fleetsnap.Node) float64 {
	held := 0.0
	for _, g := range n.GPUs {
		held += g.MemUsed.Or(0)
	}
	return held
}

// order is the rows' sort and filter state.
type order struct {
	keys      keyMap
	sortBy    int
	reverse   bool
	filter    textinput.Model
	filtering bool // the filter has the keys
}

func newOrder() order {
	o := order{keys: defaultKeyMap(), filter: textinput.New()}
	o.filter.Prompt = ""
	return o
}

// labelIn is the hints line's "waste ▼", the key's name in l's language
// (its English name where l has no catalogue).
func (o order) labelIn(l words) string {
	k := sortKeys[o.sortBy]
	name := k.name
	if l.tr != nil {
		name = l.t("sort." + k.name)
	}
	if k.asc != o.reverse {
		return name + " ▲"
	}
	return name + " ▼"
}

// rows are the nodes shown, filtered and sorted (ties by name, then
// instance, so the rows never swap between refreshes).
func (o order) rows(nodes []fleetsnap.Node) []*fleetsnap.Node {
	f := strings.ToLower(strings.TrimSpace(o.filter.Value()))
	out := make([]*fleetsnap.Node, 0, len(nodes))
	for i := range nodes {
		if f == "" || strings.Contains(nodeText(&nodes[i]), f) {
			out = append(out, &nodes[i])
		}
	}
	by := sortKeys[o.sortBy]
	slices.SortStableFunc(out, func(a, b *fleetsnap.Node) int {
		if a.Up != b.Up && by.name != "name" {
			if a.Up {
				return -1
			}
			return 1
		}
		c := by.less(a, b)
		if o.reverse {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Key.Instance, b.Key.Instance))
	})
	return out
}

// nodeText is what the filter matches, lower case: the node's name, its
// target (job, instance), its GPUs' models, pods and namespaces, and the
// rules of its open findings.
func nodeText(n *fleetsnap.Node) string {
	var b strings.Builder
	b.WriteString(n.Name + " " + n.Key.Job + " " + n.Key.Instance)
	for _, g := range n.GPUs {
		b.WriteString(" " + g.Model + " " + g.Namespace + "/" + g.Pod)
	}
	for _, f := range n.Findings {
		b.WriteString(" " + f.Rule)
	}
	if !n.Up {
		b.WriteString(" down")
	}
	return strings.ToLower(b.String())
}

// key handles s, S and / and the keys typed into the filter; it reports
// whether it used k.
func (o *order) key(k tea.KeyMsg) bool {
	if o.filtering {
		switch {
		case key.Matches(k, o.keys.FilterKeep):
			o.filtering = false
			o.filter.Blur()
		case key.Matches(k, o.keys.FilterClear):
			o.filtering = false
			o.filter.Blur()
			o.filter.Reset()
		default:
			o.filter, _ = o.filter.Update(k)
		}
		return true
	}
	switch {
	case key.Matches(k, o.keys.Sort):
		o.sortBy, o.reverse = (o.sortBy+1)%len(sortKeys), false
	case key.Matches(k, o.keys.SortReverse):
		o.reverse = !o.reverse
	case key.Matches(k, o.keys.Filter):
		o.filtering = true
		o.filter.Reset() // / starts a new filter, as in the process pane
		o.filter.Focus()
	default:
		return false
	}
	return true
}

// filterLine is the filter being typed, or the one kept, above the rows.
func (m Model) filterLine() string {
	st, f := m.opts.Styles, &m.order.filter
	switch {
	case m.order.filtering:
		v := []rune(f.Value())
		at := min(f.Position(), len(v))
		return "  " + st.Key.Render("/") + " " + string(v[:at]) + "▏" + string(v[at:]) +
			st.Muted.Render("  "+m.words.t("filter_help")) + "\n"
	case f.Value() != "":
		return "  " + st.Muted.Render(m.words.t("filter")) + f.Value() + st.Muted.Render("  "+m.words.t("filter_new")) + "\n"
	}
	return ""
}
