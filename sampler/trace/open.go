package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"

	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// ReadFile reads the trace at path: a Kineto trace, gzipped or not, or an
// Nsight Systems SQLite export (told by its first bytes, not its name), and
// checks it is one gpuscope can analyse.
func ReadFile(path string, yield func(Event) error) (Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return Meta{Rank: -1}, err
	}
	defer f.Close()
	var magic [len(sqlite.Magic)]byte
	if n, _ := io.ReadFull(f, magic[:]); sqlite.IsSQLite(magic[:n]) {
		f.Close()
		return ReadNsys(path, yield)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Meta{Rank: -1}, err
	}
	m, err := ReadStream(f, yield)
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ReadStream is Read over gzipped or plain input, followed by Supported.
func ReadStream(r io.Reader, yield func(Event) error) (Meta, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	magic, _ := br.Peek(len(sqlite.Magic))
	if sqlite.IsSQLite(magic) {
		return Meta{Rank: -1}, errors.New("an Nsight Systems export (SQLite) is read from its file, not from a pipe: give its path")
	}
	var in io.Reader = br
	if record.IsGzip(magic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return Meta{Rank: -1}, fmt.Errorf("damaged gzip: %w", err)
		}
		defer zr.Close()
		in = zr
	}
	m, err := Read(in, yield)
	if err != nil {
		if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
			return m, fmt.Errorf("damaged gzip: %w", err)
		}
		return m, err
	}
	return m, Supported(m)
}

// Supported says why a trace that read cleanly cannot be analysed: the
// figures are defined for CUDA kernels, so another accelerator's trace or a
// profile without GPU activity gets one line saying what to do.
func Supported(m Meta) error {
	switch {
	case m.Platform == "rocm":
		return errors.New("a ROCm (AMD GPU) trace: gpuscope analyses NVIDIA CUDA traces only")
	case m.Platform == "mtia":
		return errors.New("an MTIA trace: gpuscope analyses NVIDIA CUDA traces only")
	case m.GPUEvents == 0:
		return errors.New("no GPU kernels or copies in the trace (a CPU-only profile?): profile with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]")
	}
	return nil
}
