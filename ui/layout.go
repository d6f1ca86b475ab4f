package ui

// Rect is a pane's place on the screen, in cells.
type Rect struct{ X, Y, W, H int }

// Empty reports a pane that is not shown.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Layout places every pane for one terminal size. It is a pure function of
// (width, height, GPU count), so it is tested with a table.
type Layout struct {
	TooSmall bool
	Header   Rect
	GPUs     Rect
	// GPULines is how many lines each GPU gets: 1 (compact) or 2 (wide).
	GPULines int
	Findings Rect
	// Side holds the three levels and the checklist next to the findings;
	// empty below SideMinWidth columns.
	Side   Rect
	Procs  Rect
	Host   Rect
	Footer Rect
}

// Screen limits (below 40×10 no pane has room for one useful
// line, so the UI says so instead of drawing garbage).
const (
	MinWidth  = 40
	MinHeight = 10
	// SideMinWidth is where the three levels and checklist fit beside the
	// findings (44 columns of side pane + ~76 for findings).
	SideMinWidth = 120
	sideWidth    = 46
	// sideMaxWidth: on wider screens the side pane grows with a third of the
	// width so checklist details and level labels are not cut (at
	// 200 columns it is 66 wide and the findings keep 133).
	sideMaxWidth = 72
	// wideMinWidth gives each GPU two lines with wide sparklines.
	wideMinWidth = 120
	// sideHeight is the three levels (title + 3) plus the checklist (title + 7).
	sideHeight = 12
	// migMinRest: MIG instance lines are extra; they never squeeze the
	// findings and processes below 14 rows (each pane's title
	// plus about six entries).
	migMinRest = 14
)

// Hidden are the panes the user hid (config.toml's hide, the F H P keys);
// the GPU pane is always shown. The zero value hides none.
type Hidden struct{ Findings, Procs, Host bool }

// ComputeLayout splits a w×h terminal among the panes for gpuCount GPUs.
// Priority when rows are short: GPUs, then findings, then host, then
// processes.
func ComputeLayout(w, h, gpuCount int) Layout { return ComputeLayoutMIG(w, h, gpuCount, 0) }

// ComputeLayoutMIG is ComputeLayout with migRows more lines wanted by the
// GPU pane (one per MIG instance, plus a note). They are granted only when
// the findings and processes keep migMinRest rows, all or nothing.
func ComputeLayoutMIG(w, h, gpuCount, migRows int) Layout {
	return ComputeLayoutHidden(w, h, gpuCount, migRows, Hidden{})
}

// ComputeLayoutHidden is ComputeLayoutMIG without the hidden panes: their
// rows go to the panes left (the GPUs' two-line sparkline rows need fewer
// rows below them, the processes get the findings' rows), and with neither
// findings nor processes the GPU pane takes the body.
func ComputeLayoutHidden(w, h, gpuCount, migRows int, hide Hidden) Layout {
	if w < MinWidth || h < MinHeight {
		return Layout{TooSmall: true}
	}
	l := Layout{Header: Rect{0, 0, w, 1}, Footer: Rect{0, h - 1, w, 1}}
	body := h - 2
	y := 1
	gpuRows := max(gpuCount, 1)

	// Host: 2 lines; a third (per-core strip) on tall screens.
	hostH := 2
	if h >= 40 {
		hostH = 3
	}
	minFindings, minProcs, sideH := 3, 3, sideHeight
	if hide.Host {
		hostH = 0
	}
	if hide.Findings {
		minFindings, sideH = 0, 0
	}
	if hide.Procs {
		minProcs = 0
	}
	if body < 1+gpuRows+minFindings+hostH+minProcs {
		hostH = 0 // very short: GPUs and findings first
	}

	l.GPULines = 1
	if w >= wideMinWidth && body-(1+2*gpuRows)-hostH >= sideH+minProcs+2 {
		l.GPULines = 2
	}
	gpuH := min(1+gpuRows*l.GPULines, max(2, body-hostH-minFindings))
	if migRows > 0 && body-gpuH-hostH-migRows >= migMinRest {
		gpuH += migRows
	}
	if hide.Findings && hide.Procs {
		gpuH = body - hostH
	}
	l.GPUs = Rect{0, y, w, gpuH}
	y += gpuH

	rest := body - gpuH - hostH
	findH, procH := rest, 0
	switch {
	case hide.Findings:
		findH, procH = 0, rest
	case hide.Procs:
	case rest >= minFindings+minProcs:
		want := max(minFindings, rest/2)
		if w >= SideMinWidth {
			want = max(want, sideHeight)
		}
		findH = min(want, rest-minProcs)
		procH = rest - findH
	}
	if findH > 0 {
		l.Findings = Rect{0, y, w, findH}
	}
	if w >= SideMinWidth && findH > 0 {
		sw := min(max(sideWidth, w/3), sideMaxWidth)
		l.Findings.W = w - sw - 1
		l.Side = Rect{w - sw, y, sw, findH}
	}
	y += findH
	if procH > 0 {
		l.Procs = Rect{0, y, w, procH}
		y += procH
	}
	if hostH > 0 {
		l.Host = Rect{0, y, w, hostH}
	}
	return l
}
