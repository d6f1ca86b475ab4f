package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// procRow is one process on one GPU, joined with its host data.
type procRow struct {
	gpu int
	p   sampler.GPUProc
	// child is set on a tree row under a GPU process (a DataLoader worker);
	// p is then its GPU parent.
	child *sampler.Proc
}

// pid is the row's process: the child on a tree row, else the GPU process.
func (r *procRow) pid() int {
	if r.child != nil {
		return r.child.PID
	}
	return r.p.PID
}

// procColumn is a sortable column of the process table.
type procColumn struct {
	// name is the column's stable name (config.toml's sort key, see
	// sortKeyName); label is its header in the dashboard's language.
	name  string
	label string
	width int
	right bool // numbers align right
	cell  func(r *procRow) string
	key   func(r *procRow) float64 // nil: not a sort column
	// optional columns are shown only while COMMAND keeps minCommandWidth
	// cells beside them; hidden is set at each render.
	optional, hidden bool
}

// procPane is the process table: who uses which GPU, with the host side
// (CPU, RSS, workers) that explains many idle GPUs.
type procPane struct {
	cached
	c       *common
	cols    []procColumn
	sortBy  int // index into cols
	reverse bool
	cursor  int
	top     int
	rows    []procRow
	// cmdWidth is what the COMMAND column gets at the current width.
	cmdWidth int
	tree     bool // T: children (DataLoader workers) under each GPU process
	// filter is the text typed after / (bubbles/textinput: cursor keys,
	// ctrl+w, paste); filtering is set while it has the keys.
	filter    textinput.Model
	filtering bool
	// firstRowLine is the pane line of the first table row (mouse clicks).
	firstRowLine int
	drawn        drawnTitle
	said         procInfoSaid
}

// procInfoSaid is the title's "N rows on M GPUs · sort COL ▼" as last
// said: three plural templates, said again only when a figure in them
// changes, not on every snapshot (docs/benchmarks.md, "The dashboard at
// 100 ms, again").
type procInfoSaid struct {
	rows, gpus      int
	col, arrow, out string
}

func (d *procInfoSaid) info(c *common, rows int, col, arrow string) string {
	if d.out == "" || d.rows != rows || d.gpus != c.gpuCount || d.col != col || d.arrow != arrow {
		*d = procInfoSaid{rows: rows, gpus: c.gpuCount, col: col, arrow: arrow,
			out: c.tr.T("procs.info", map[string]any{"Rows": c.count("rows.count", rows),
				"GPUs": c.count("gpus.count", c.gpuCount), "Col": col, "Arrow": arrow})}
	}
	return d.out
}

// hostOf is the row's host record, an empty one where the host is not
// visible. Out of line: it was copied into its 17 callers.
//
//go:noinline
func hostOf(r *procRow) *sampler.Proc {
	if r.child != nil {
		return r.child
	}
	if r.p.Host != nil {
		return r.p.Host
	}
	return &sampler.Proc{}
}

func newProcPane(c *common) *procPane {
	p := &procPane{c: c, filter: textinput.New()}
	p.filter.Prompt = ""
	metric := func(f func(r *procRow) sampler.Metric) func(r *procRow) float64 {
		return func(r *procRow) float64 { return f(r).Or(-1) }
	}
	gpuMem := func(r *procRow) sampler.Metric { return r.p.MemUsed }
	sm := func(r *procRow) sampler.Metric { return r.p.SMUtil }
	cpu := func(r *procRow) sampler.Metric { return hostOf(r).CPU }
	rss := func(r *procRow) sampler.Metric { return hostOf(r).RSS }
	p.cols = []procColumn{
		{name: "PID", width: 7, right: true, cell: func(r *procRow) string { return strconv.Itoa(r.pid()) },
			key: func(r *procRow) float64 { return float64(r.p.PID) }},
		{name: "USER", width: 8, cell: func(r *procRow) string { return orDash(hostOf(r).User) }},
		// 4 wide: "GPU▼" when sorted by it (3 cut it to "GP…" at 80 columns).
		{name: "GPU", width: 4, right: true, cell: gpuSide(func(r *procRow) string { return strconv.Itoa(r.gpu) }),
			key: func(r *procRow) float64 { return float64(r.gpu) }},
		{name: "T", width: 3, cell: gpuSide(func(r *procRow) string { return r.p.Type })},
		{name: "GPU-MEM", width: 8, right: true, cell: gpuSide(func(r *procRow) string { return units.Compact.Bytes(r.p.MemUsed) }), key: metric(gpuMem)},
		{name: "SM%", width: 4, right: true, cell: gpuSide(func(r *procRow) string { return units.Percent(r.p.SMUtil, 0) }), key: metric(sm)},
		{name: "CPU%", width: 5, right: true, cell: func(r *procRow) string { return units.Percent(hostOf(r).CPU, 0) }, key: metric(cpu)},
		{name: "RSS", width: 6, right: true, cell: func(r *procRow) string { return units.Compact.Bytes(hostOf(r).RSS) }, key: metric(rss)},
		{name: "TIME", width: 6, right: true, cell: func(r *procRow) string { return p.runtime(r) },
			key: func(r *procRow) float64 { return -float64(hostOf(r).Start.Unix()) }},
		{name: "CONTAINER", width: containerWidth, optional: true, cell: func(r *procRow) string { return containerCell(hostOf(r), containerWidth) }},
		{name: "COMMAND", cell: func(r *procRow) string { return command(r, p.cmdWidth, p.idBeforeCommand()) }},
	}
	for i := range p.cols {
		p.cols[i].label = c.word("procs.col." + sortKeyName(p.cols[i].name))
	}
	p.sortBy = 4 // GPU-MEM: who holds the memory is the first question
	for i, col := range p.cols {
		if col.key != nil && c.opts.ProcSort != "" && sortKeyName(col.name) == c.opts.ProcSort {
			p.sortBy = i
		}
	}
	p.reverse, p.tree = c.opts.ProcSortReverse, c.opts.ProcTree
	return p
}

// sortKeyName is a column's name in config.toml's sort key: "GPU-MEM" is
// gpu_mem, "SM%" (labelled GPU%: NVML's per-process GPU time) sm.
func sortKeyName(col string) string {
	return strings.ToLower(strings.NewReplacer("-", "_", "%", "").Replace(col))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// command is the command line with its worker count, "python train.py
// (+8)", cut to w cells (0: uncut) keeping the count, which matters more
// than the tail of the arguments. With idPrefix (no CONTAINER column) a
// process in a container starts with its short id, "[3f9a1c2b7d4e]".
func command(r *procRow, w int, idPrefix bool) string {
	h := r.p.Host
	if r.child != nil {
		h = r.child
	}
	if h == nil {
		return "?" // another PID namespace: the pane says so once
	}
	cmd := h.Cmdline
	if cmd == "" {
		cmd = h.Name
	}
	if idPrefix && h.Container != "" { // container id from the cgroup, 12 chars like docker ps
		cmd = "[" + h.Container[:min(12, len(h.Container))] + "] " + cmd
	}
	if r.child != nil {
		return "└ " + truncateW(cmd, w-2)
	}
	if n := len(h.Children); n > 0 {
		suffix := fmt.Sprintf(" (+%d)", n)
		if w > 0 {
			cmd = truncate(cmd, max(1, w-len(suffix)))
		}
		return cmd + suffix
	}
	return cmd
}

func (p *procPane) runtime(r *procRow) string {
	h := hostOf(r)
	if h.Start.IsZero() {
		return naText
	}
	return fmtDuration(p.c.now().Sub(h.Start))
}

// cycleSort moves to the next sortable column (s), or reverses (S).
func (p *procPane) cycleSort(reverse bool) {
	if reverse {
		p.reverse = !p.reverse
	} else {
		for i := 1; i <= len(p.cols); i++ {
			if n := (p.sortBy + i) % len(p.cols); p.cols[n].key != nil {
				p.sortBy = n
				break
			}
		}
		p.reverse = false
	}
	p.invalidate()
}

// gpuSide blanks a GPU-side cell on a child row (workers hold no GPU).
func gpuSide(f func(r *procRow) string) func(r *procRow) string {
	return func(r *procRow) string {
		if r.child != nil {
			return ""
		}
		return f(r)
	}
}

// truncateW cuts to w cells when w > 0 (0: uncut).
func truncateW(s string, w int) string {
	if w <= 0 {
		return s
	}
	return truncate(s, w)
}

func (p *procPane) move(d int) {
	p.collect() // rows may not be rendered yet
	last := max(0, len(p.rows)-1)
	p.cursor = min(max(min(p.cursor, last)+d, 0), last) // from the row shown, if the table shrank
	p.invalidate()
}

func (p *procPane) View() string { return p.view(p.render) }

// collect gathers and sorts the rows, largest first unless reversed.
func (p *procPane) collect() {
	p.rows = p.rows[:0]
	s := p.c.latest()
	if s != nil {
		for _, g := range s.GPUs {
			for _, pr := range g.Procs {
				if r := (procRow{gpu: g.Index, p: pr}); p.matches(&r) {
					p.rows = append(p.rows, r)
				}
			}
		}
	}
	key := p.cols[p.sortBy].key
	sort.SliceStable(p.rows, func(i, j int) bool {
		a, b := key(&p.rows[i]), key(&p.rows[j])
		if a == b {
			return p.rows[i].gpu < p.rows[j].gpu || (p.rows[i].gpu == p.rows[j].gpu && p.rows[i].p.PID < p.rows[j].p.PID)
		}
		return (a > b) != p.reverse
	})
	if p.tree && s != nil {
		p.rows = withChildren(p.rows, s.Host)
	}
}

func (p *procPane) render() []string {
	c, st := p.c, p.c.st
	p.collect()
	focused := c.focus == focusProcs
	arrow := "▼"
	if p.reverse {
		arrow = "▲"
	}
	var info string
	if c.tr != nil {
		info = p.said.info(c, len(p.rows), p.cols[p.sortBy].label, arrow)
	} else {
		info = fmt.Sprintf("%s on %s · sort %s %s", plural(len(p.rows), "row"), plural(c.gpuCount, "GPU"), p.cols[p.sortBy].name, arrow)
	}
	info += p.modes()
	lines := []string{p.drawn.title(st, p.c.word("pane.processes"), info, focused, p.w)}
	switch {
	case p.filtering:
		v := []rune(p.filter.Value())
		at := min(p.filter.Position(), len(v))
		lines = append(lines, "  "+st.Key.Render("/")+" "+string(v[:at])+"▏"+string(v[at:])+st.Muted.Render("  "+c.word("procs.filter_help")))
	case p.filter.Value() != "":
		lines = append(lines, "  "+st.Muted.Render(c.word("procs.filter")+" ")+p.filter.Value()+st.Muted.Render("  "+c.word("procs.filter_new")))
	}
	if h := c.latest(); h != nil && h.Host != nil && h.Host.ForeignPIDs {
		// Said once instead of a column of "not found" (gpuscope in a container).
		lines = append(lines, "  "+st.Warn.Render("▲")+" "+c.word("procs.foreign_pids"))
	}
	if h := c.latest(); h != nil && h.Node.ProcsFrom != "" && c.tr != nil {
		// NVML's host PIDs replaced by the host's answer (sampler.ProcSource): say whose list this is.
		lines = append(lines, "  "+st.Muted.Render(c.tr.T("procs.from_socket", map[string]any{"Path": h.Node.ProcsFrom})))
	}
	p.layoutColumns()
	var hdr []string
	for i, col := range p.cols {
		if col.hidden {
			continue
		}
		name := col.label
		if i == p.sortBy {
			name += arrow
		}
		hdr = append(hdr, p.pad(col, name))
	}
	lines = append(lines, "  "+c.styled(&st.Muted, strings.Join(hdr, " ")))
	if len(p.rows) == 0 && p.filter.Value() != "" {
		return append(lines, st.Muted.Render("  "+c.word("procs.no_match")))
	}
	if len(p.rows) == 0 {
		return append(lines, st.Muted.Render("  "+c.word("procs.none")))
	}
	cur := min(p.cursor, len(p.rows)-1) // the Model clamps the cursor (clampCursors); drawing never moves it
	p.firstRowLine = len(lines)
	fit := max(1, p.h-len(lines))
	p.top = min(max(p.top, cur-fit+1), cur)
	p.top = max(0, min(p.top, len(p.rows)-fit))
	for i := p.top; i < len(p.rows) && i < p.top+fit; i++ {
		cells := make([]string, 0, len(p.cols))
		for _, col := range p.cols {
			if !col.hidden {
				cells = append(cells, p.pad(col, col.cell(&p.rows[i])))
			}
		}
		lines = append(lines, c.cursor(i == cur, focused, strings.Join(cells, " "), p.w))
	}
	return lines
}

func (p *procPane) pad(col procColumn, s string) string {
	switch {
	case col.width == 0:
		return s
	case col.right:
		return padLeft(s, col.width)
	}
	return padRight(s, col.width)
}
