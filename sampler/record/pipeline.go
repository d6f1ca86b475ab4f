package record

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
)

// pipeline decodes lines on several cores while keeping their order: JSON
// decoding is nearly all of a replay's load time (a day of 8 GPUs at 1 s is
// ~700 MB of JSON), and lines are independent. One goroutine reads lines;
// workers decode them; Next takes them back in file order. Memory stays
// bounded by the window of lines in flight.
type pipeline struct {
	order    chan *job // jobs in file order, for Next
	quit     chan struct{}
	stopOnce sync.Once
	// spare holds line buffers whose entry is decoded, for the reading
	// goroutine to fill again: a fresh copy of every line was a quarter of
	// a replay's allocated bytes, and the garbage collector's work (run
	// about once per 13 MB allocated at this heap size) follows those bytes.
	spare chan []byte
	// procMem holds the host process records and GPUs of lines the reader's caller
	// is done with, when it asked for Lean.
	procMem chan procMem
}

// job is one line on its way through the pipeline.
type job struct {
	lineNo     int
	line       []byte
	blank      bool
	terminated bool
	readErr    error    // set on the last job: io.EOF or why reading stopped
	skips      []string // gzip members skipped while reading it (lineReader.skips)
	l          wireEntry
	perr       error
	mem        procMem       // its host process records and GPUs, when decoded lean
	ready      chan struct{} // closed once decoded
}

// Beyond 8 workers the single reading goroutine is the limit,
// and 4 lines per worker in flight keep every worker busy.
// A spare line buffer above maxSpareBytes (~50x a day-long
// 8-GPU recording's 11 KB lines) is left to the collector, so that one huge
// line does not stay pinned for the rest of the file.
const (
	maxWorkers    = 8
	jobsPerWorker = 4
	maxSpareBytes = 512 << 10
)

// gpuHint is the header's GPU count: each entry's GPU slice is allocated at
// that size up front instead of grown by the decoder (4, 6, 9: ~2.5x the
// bytes of a 1 KB GPU struct per line).
// lean is read as each line's decoding starts (Reader.Lean).
func startPipeline(lines *lineReader, gpuHint int, lean *atomic.Bool) *pipeline {
	workers := min(runtime.GOMAXPROCS(0), maxWorkers)
	window := workers * jobsPerWorker
	p := &pipeline{order: make(chan *job, window), quit: make(chan struct{}), spare: make(chan []byte, 2*window), procMem: make(chan procMem, window+2)}
	work := make(chan *job, window)
	for range workers {
		go func() {
			var s scanner
			for j := range work {
				if !j.blank {
					if s.lean = lean.Load(); s.lean && s.spare.procs == nil && s.spare.gpus == nil {
						select {
						case s.spare = <-p.procMem:
						default:
						}
					}
					if gpuHint > 0 {
						j.l.GPUs = s.gpuSlice(gpuHint)
					}
					j.perr = decodeLine(&s, j.line, &j.l) // copies what it keeps
					if s.lean {
						s.used.gpus = j.l.GPUs
					}
					j.mem, s.used = s.used, procMem{}
					if cap(j.line) <= maxSpareBytes {
						select {
						case p.spare <- j.line[:0]:
						default:
						}
					}
					j.line = nil
				}
				close(j.ready)
			}
		}()
	}
	go p.read(lines, work)
	return p
}

// read feeds lines to the workers and to Next until the stream ends or the
// pipeline is stopped.
func (p *pipeline) read(lines *lineReader, work chan<- *job) {
	defer close(work)
	defer close(p.order)
	for {
		line, terminated, err := lines.next()
		j := &job{lineNo: lines.no, terminated: terminated, readErr: err, ready: make(chan struct{}), skips: lines.skips}
		lines.skips = nil
		j.blank = len(bytes.TrimSpace(line)) == 0
		if !j.blank {
			var buf []byte
			select {
			case buf = <-p.spare:
			default:
			}
			j.line = append(buf, line...) // the reader's buffer is reused
		}
		select {
		case p.order <- j:
		case <-p.quit:
			return
		}
		select {
		case work <- j:
		case <-p.quit:
			close(j.ready)
			return
		}
		if err != nil {
			return
		}
	}
}

func (p *pipeline) stop() { p.stopOnce.Do(func() { close(p.quit) }) }
