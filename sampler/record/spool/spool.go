// Package spool turns a recording or log into a timeline readable by
// index without holding it in memory: the snapshots are re-encoded in
// blocks into an unlinked temporary file while the input is streamed on a
// goroutine (Open), so a reader can show the first block while the rest of
// a long recording is still being read. `gpuscope replay` reads through it.
package spool

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	json "github.com/go-json-experiment/json"
	"github.com/klauspost/compress/flate"

	"github.com/gpuscope/gpuscope/sampler"
)

// BlockLen is how many snapshots a spool block holds: a
// replay's rebuild reads ~window+settle+backfill ≈ 360 snapshots at 1 s,
// so 128 keeps that to three or four blocks while a block of 8 GPUs
// decodes in ~20 ms (measured in BenchmarkSpoolAt).
const BlockLen = 128

// Spool is a timeline kept on disk: snapshots re-encoded as JSON with the
// recordings' own encoder (go-json-experiment; encoding/gob decoded a block
// 3x faster but cost the release binary 271 KB, over its 20 MB goal: a
// seek is 11 % slower, docs/benchmarks.md "What each dependency costs") in
// blocks of BlockLen, each block deflated into a temporary file, with only
// the times and block offsets in memory (~30 B a snapshot). Reading one
// snapshot decodes its block; the last block decoded is cached, so playing
// forward decodes each block once. A gzip recording cannot be seeked into,
// and the native format leaves out what repeats (statics restored from
// earlier lines), so a line cannot be decoded alone: the spool is what
// makes any point of it reachable without the day in memory.
//
// One goroutine writes (Add, Finish: the loader Open starts); any number
// read (Len, Time, At, Progress) while it does: a reader sees whole blocks
// only, and the timeline grows block by block.
type Spool struct {
	f *os.File

	mu       sync.Mutex
	times    []time.Time // of the snapshots in written blocks
	order    []int32     // sorted index → written index, nil when in order
	offsets  []int64     // block b is f[offsets[b]:offsets[b+1]]
	cached   int         // block number held in blockBuf, -1 none
	blockBuf []sampler.Snapshot
	decoded  int // blocks decoded so far (tests bound what a seek costs)
	prog     Progress

	// The writer's own state: only Add, flush and Finish touch it.
	pending []sampler.Snapshot
	end     int64

	loader *loader // set by Open; nil for a spool filled by Add
}

// New makes an empty spool backed by a temporary file in dir ("" the
// system's), filled by Add and Finish.
func New(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "gpuscope-replay-*.spool")
	if err != nil {
		return nil, fmt.Errorf("replay spool: %w", err)
	}
	// Unlinked at once on Unix: the space is freed when the file is closed,
	// even if the process is killed.
	_ = os.Remove(f.Name())
	return &Spool{f: f, cached: -1, offsets: []int64{0}, prog: Progress{Fraction: -1}}, nil
}

// Add appends a snapshot; readers see it once its block is full (or
// Finish wrote the last one).
func (s *Spool) Add(snap sampler.Snapshot) error {
	s.pending = append(s.pending, snap)
	if len(s.pending) == BlockLen {
		return s.flush()
	}
	return nil
}

// flush encodes the pending block outside the lock (readers keep reading
// meanwhile), then publishes it.
func (s *Spool) flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	var buf bytes.Buffer
	// klauspost's deflate, which the recordings link anyway: the standard
	// library's compressor cost the binary 40 KB more (docs/benchmarks.md,
	// "The binary's size: text/template's methods").
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed) // level is valid: no error
	if err := json.MarshalWrite(zw, s.pending); err != nil {
		return fmt.Errorf("replay spool: encode: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("replay spool: %w", err)
	}
	if _, err := s.f.WriteAt(buf.Bytes(), s.end); err != nil {
		return fmt.Errorf("replay spool: write: %w", err)
	}
	s.end += int64(buf.Len())
	s.mu.Lock()
	for _, p := range s.pending {
		s.times = append(s.times, p.Time)
	}
	s.offsets = append(s.offsets, s.end)
	s.mu.Unlock()
	s.pending = s.pending[:0]
	return nil
}

// Finish writes the last block and puts the timeline in time order (a log
// concatenated out of order plays sorted); it says whether it had to sort.
func (s *Spool) Finish() (sorted bool, err error) {
	if err := s.flush(); err != nil {
		return false, err
	}
	s.pending = nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loader == nil { // filled by Add: nothing more comes (a loader says so with its warnings)
		s.prog.Done = true
	}
	if sort.SliceIsSorted(s.times, func(i, j int) bool { return s.times[i].Before(s.times[j]) }) {
		return false, nil
	}
	s.order = make([]int32, len(s.times))
	for i := range s.order {
		s.order[i] = int32(i)
	}
	sort.SliceStable(s.order, func(i, j int) bool { return s.times[s.order[i]].Before(s.times[s.order[j]]) })
	times := make([]time.Time, len(s.times))
	for i, o := range s.order {
		times[i] = s.times[o]
	}
	s.times = times
	return true, nil
}

// Len is the number of snapshots readable now.
func (s *Spool) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.times)
}

// Time is snapshot i's time, from memory.
func (s *Spool) Time(i int) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.times[i]
}

// At decodes snapshot i (its block, unless cached). A block that cannot be
// read back (the temp file damaged underneath) gives a snapshot with only
// its time: the replay shows no data there rather than stopping.
func (s *Spool) At(i int) sampler.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := i
	if s.order != nil {
		w = int(s.order[i])
	}
	b := w / BlockLen
	if s.cached != b {
		blk, err := s.readBlock(b)
		if err != nil {
			return sampler.Snapshot{Time: s.times[i]}
		}
		s.cached, s.blockBuf = b, blk
	}
	return s.blockBuf[w%BlockLen]
}

func (s *Spool) readBlock(b int) ([]sampler.Snapshot, error) {
	s.decoded++
	r := flate.NewReader(io.NewSectionReader(s.f, s.offsets[b], s.offsets[b+1]-s.offsets[b]))
	defer r.Close()
	var out []sampler.Snapshot
	if err := json.UnmarshalRead(r, &out); err != nil {
		return nil, fmt.Errorf("replay spool: block %d: %w", b, err)
	}
	for i := range out { // the GPU processes' links to host processes are not encoded
		sampler.JoinProcs(&out[i])
	}
	return out, nil
}

// Decoded is how many blocks have been decoded so far.
func (s *Spool) Decoded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.decoded
}

// Close stops the loader (if Open started one) and waits for it, then
// removes the spool's file.
func (s *Spool) Close() error {
	if s.loader != nil {
		s.loader.stop()
	}
	return s.f.Close()
}
