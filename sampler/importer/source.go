package importer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Stdin is the path that means standard input ("gpuscope report -").
const Stdin = "-"

// OpenSource opens path for one pass: "-" is standard input; a FIFO,
// /dev/stdin or a shell's <(...) is opened like a file and read once — the
// format is detected from a peeked prefix (Sniff), never by reopening.
func OpenSource(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path == Stdin {
		if stdin == nil {
			stdin = os.Stdin
		}
		return io.NopCloser(stdin), nil
	}
	f, err := os.Open(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %w: check the path and that you may read it", path, pe.Err)
	} else if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory: give a recording or a log file", path)
	}
	return f, nil
}

// DisplayName is how messages name path ("standard input" for "-").
func DisplayName(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}

// Sniff wraps src in a buffered reader and detects the format from its
// first bytes without consuming them, so a pipe is read exactly once.
// The returned reader yields the whole input, gzip still compressed.
func Sniff(src io.Reader) (*bufio.Reader, Format) {
	br := bufio.NewReaderSize(src, readBufBytes)
	head, _ := br.Peek(detectBytes)
	return br, Detect(head)
}
