package importer

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Limits: no real log line (an XML element, a CSV row of every
// query field) comes near 16 MiB, so longer is not a log; warnings are for a
// human and stop after a screenful.
const (
	maxLineBytes = 16 << 20
	maxWarnings  = 20
	readBufBytes = 64 << 10
)

// lines reads a text log line by line, counting lines for messages. Unlike
// bufio.Scanner it has no 64 KiB limit.
type lines struct {
	br   *bufio.Reader
	no   int
	long []byte
	// torn is set when the last line had no newline (a log cut off while
	// being written); the line is still returned.
	torn bool
	// ioErr is a read error other than EOF (a damaged gzip stream).
	ioErr error
}

// next returns the next line without "\n" or "\r\n", or io.EOF.
func (l *lines) next() (string, error) {
	frag, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], frag...)
		for err == bufio.ErrBufferFull {
			if len(l.long) > maxLineBytes {
				return "", fmt.Errorf("line %d: longer than %d MiB; want a text log", l.no+1, maxLineBytes>>20)
			}
			frag, err = l.br.ReadSlice('\n')
			l.long = append(l.long, frag...)
		}
		frag = l.long
	}
	if len(frag) == 0 {
		if err != nil && err != io.EOF {
			l.ioErr = err
		}
		return "", io.EOF
	}
	l.no++
	if frag[len(frag)-1] == '\n' {
		frag = frag[:len(frag)-1]
	} else {
		l.torn = true
		if err != io.EOF {
			l.ioErr = err
		}
	}
	if n := len(frag); n > 0 && frag[n-1] == '\r' {
		frag = frag[:n-1]
	}
	return string(frag), nil
}

// warnings collects messages for Stream.Warnings, bounded.
type warnings struct {
	list    []string
	dropped int
	once    map[string]bool
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func (w *warnings) add(format string, args ...any) {
	if len(w.list) >= maxWarnings {
		w.dropped++
		return
	}
	w.list = append(w.list, fmt.Sprintf(format, args...))
}

// addOnce records a warning the first time key is seen.
func (w *warnings) addOnce(key, format string, args ...any) {
	if w.once == nil {
		w.once = map[string]bool{}
	}
	if !w.once[key] {
		w.once[key] = true
		w.add(format, args...)
	}
}

func (w *warnings) Warnings() []string {
	out := append([]string(nil), w.list...)
	if w.dropped > 0 {
		out = append(out, "... and "+sampler.Counted(w.dropped, "more warning", "more warnings"))
	}
	return out
}

// ticks groups per-GPU rows into snapshots. A log prints one row per GPU
// (or per process) each tick; a tick ends when a row repeats an identity
// already seen in it, when the GPU index goes backwards, or when the row's
// time differs (only for logs whose rows carry no identity).
type ticks struct {
	source   Format
	opts     Options
	warn     *warnings
	seq      uint64
	cur      []sampler.GPU
	seen     map[string]bool
	lastIdx  int
	t        time.Time
	hasT     bool
	open     bool
	nodeTmpl sampler.Node
}

// row describes one log row for grouping.
type row struct {
	key   string // identity within a tick ("" when the log has none)
	index int    // GPU index, -1 when unknown
	t     time.Time
	hasT  bool
}

// start begins a row; when the row opens a new tick, the finished previous
// tick is returned.
func (k *ticks) start(r row) (sampler.Snapshot, bool) {
	var done sampler.Snapshot
	closed := false
	if k.open {
		repeat := r.key != "" && k.seen[r.key]
		backwards := r.index >= 0 && r.index < k.lastIdx
		retimed := r.key == "" && r.hasT && k.hasT && !r.t.Equal(k.t)
		if repeat || backwards || retimed {
			done, closed = k.flush()
		}
	}
	if !k.open {
		k.open, k.t, k.hasT = true, r.t, r.hasT
		k.seen = map[string]bool{}
	}
	if r.key != "" {
		k.seen[r.key] = true
	}
	if r.index >= 0 {
		k.lastIdx = r.index
	}
	return done, closed
}

// gpu returns the current tick's GPU with index i, adding it if new.
//
// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func (k *ticks) gpu(i int) *sampler.GPU {
	for j := range k.cur {
		if k.cur[j].Index == i {
			return &k.cur[j]
		}
	}
	k.cur = append(k.cur, sampler.GPU{Index: i})
	return &k.cur[len(k.cur)-1]
}

// flush ends the current tick.
func (k *ticks) flush() (sampler.Snapshot, bool) {
	if !k.open {
		return sampler.Snapshot{}, false
	}
	t := k.t
	if !k.hasT {
		t = k.opts.Start.Add(time.Duration(k.seq) * k.opts.Interval)
		k.warn.addOnce("synth", "the log has no timestamps; times are synthesized from %s at %s steps",
			k.opts.Start.Format(time.RFC3339), k.opts.Interval)
	}
	k.seq++
	node := k.nodeTmpl
	node.Source = string(k.source)
	s := sampler.Snapshot{Time: t, Seq: k.seq, Node: node, GPUs: k.cur}
	k.cur, k.open, k.lastIdx = nil, false, 0
	return s, true
}
