package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/record"
	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// sniffBytes is how much of a file Sniff looks at: Kineto writes its
// header (schemaVersion, deviceProperties of every GPU, distributedInfo)
// before "traceEvents", a few KiB for eight GPUs.
const sniffBytes = 64 << 10

// Sniff says whether head, the start of a file (gzip looked through), is a
// Chrome-trace JSON object: "{" and a "traceEvents" or Kineto's
// "schemaVersion" key in it.
func Sniff(head []byte) bool {
	head, ok := record.TextHead(head, sniffBytes)
	if !ok {
		return false
	}
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	return bytes.Contains(head, []byte(`"traceEvents"`)) || bytes.Contains(head, []byte(`"schemaVersion"`))
}

// IsTraceFile reads the start of path and says whether it is a trace: a
// Kineto trace (Sniff) or a SQLite database, which report reads as an
// Nsight Systems export (ReadNsys says so when it is another database).
func IsTraceFile(path string) (bool, error) {
	head, err := readHead(path)
	return err == nil && (Sniff(head) || sqlite.IsSQLite(head)), err
}

// IsStatsFile says whether the file at path is an `nsys stats --format
// csv` summary (SniffStats on its first bytes).
func IsStatsFile(path string) (bool, error) {
	head, err := readHead(path)
	return err == nil && SniffStats(head), err
}

// readHead is the first sniffBytes of the file at path.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return head[:n], nil
}

// InDir lists the traces in dir, as tensorboard_trace_handler writes them
// (one *.pt.trace.json[.gz] per rank), and Nsight Systems exports: the
// *.json, *.json.gz and *.sqlite files whose content is a trace, sorted by
// name.
func InDir(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.gz") || strings.HasSuffix(name, ".sqlite")) {
			continue
		}
		p := filepath.Join(dir, name)
		if ok, err := IsTraceFile(p); err == nil && ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}
