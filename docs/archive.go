package docs

import (
	"bytes"
	"compress/flate"
	_ "embed" // playbook.z
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The playbook ships as one file, playbook.z, written from playbook/*.md
// and playbook/zh/*.md by
// `go test ./docs -run TestPlaybookArchive -args -update-playbook`
// (TestPlaybookArchive holds it equal to the pages). The pages as plain
// files cost the release binary ~186 KB, compressed ~100 KB
// (docs/benchmarks.md "What each dependency costs"). ui/i18n ships its
// message files the same way (ui/i18n/words.z).
//
//go:embed playbook.z
var playbookZ string

// archiveName is the archive's file under docs/.
const archiveName = "playbook.z"

// Archive is files compressed one DEFLATE stream each, so one file
// inflates alone when asked for (tens of µs; BenchmarkPlaybookLang) and
// nothing is kept between calls; one stream for all would save 30 KB more
// but cost every file a millisecond.
//
// Its form: an index, one line per file: its path, a tab, the end of its
// stream in the data (the previous file's end is its start); an empty
// line; then the files' streams one after another.
type Archive struct {
	files []archiveFile
	data  string
}

// archiveFile is one file's place in the archive's data.
type archiveFile struct {
	path       string
	start, end int
}

// OpenArchive reads z's index. The archive is the build's own, so a
// damaged one is a broken build (its test): the index ends where it stops
// making sense.
func OpenArchive(z string) Archive {
	head, data, ok := strings.Cut(z, "\n\n")
	if !ok {
		return Archive{}
	}
	var a Archive
	start := 0
	for line := range strings.SplitSeq(head, "\n") {
		path, end, _ := strings.Cut(line, "\t")
		e, err := strconv.Atoi(end)
		if err != nil || e < start || e > len(data) {
			break
		}
		a.files = append(a.files, archiveFile{path, start, e})
		start = e
	}
	a.data = data
	return a
}

// Paths lists the archive's files in order.
func (a Archive) Paths() []string {
	out := make([]string, len(a.files))
	for i, f := range a.files {
		out[i] = f.path
	}
	return out
}

// Read is the file at path, or false.
func (a Archive) Read(path string) ([]byte, bool) {
	for _, f := range a.files {
		if f.path != path {
			continue
		}
		b, err := io.ReadAll(flate.NewReader(strings.NewReader(a.data[f.start:f.end])))
		if err != nil {
			return nil, false
		}
		return b, true
	}
	return nil, false
}

// WriteArchive is the archive of the files at paths, in that order, with
// contents[path] each.
func WriteArchive(paths []string, contents map[string][]byte) ([]byte, error) {
	var head strings.Builder
	var data bytes.Buffer
	for _, p := range paths {
		zw, err := flate.NewWriter(&data, flate.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(contents[p]); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		fmt.Fprintf(&head, "%s\t%d\n", p, data.Len())
	}
	return append([]byte(head.String()+"\n"), data.Bytes()...), nil
}

// playbook is the embedded playbook.
func playbook() Archive { return OpenArchive(playbookZ) }

// readPage is the page at path ("playbook/RULE.md"), or false.
func readPage(path string) ([]byte, bool) { return playbook().Read(path) }
