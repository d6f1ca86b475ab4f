package docs

import (
	"compress/flate"
	_ "embed" // playbook.z
	"io"
	"strconv"
	"strings"
)

// The playbook ships as one file, playbook.z, written from playbook/*.md
// and playbook/zh/*.md by
// `go test ./docs -run TestPlaybookArchive -args -update-playbook`
// (TestPlaybookArchive holds it equal to the pages). The pages as plain
// files cost the release binary ~186 KB, compressed ~100 KB
// (docs/benchmarks.md "What each dependency costs"). Each page is its own
// DEFLATE stream, so one page inflates alone when asked for (tens of µs;
// BenchmarkPlaybookLang) and nothing is kept between calls; one stream for
// all would save 30 KB more but cost every page a millisecond.
//
// The file is an index, one line per page: its path, a tab, the end of its
// stream in the data (the previous page's end is its start); an empty line;
// then the pages' streams one after another.
//
//go:embed playbook.z
var playbookZ string

// archiveName is the archive's file under docs/.
const archiveName = "playbook.z"

// archivePage is one page's place in the archive's data.
type archivePage struct {
	path       string
	start, end int
}

// pageIndex lists the archive's pages in order. The archive is the build's
// own, so a damaged one is a broken build (TestPlaybookArchive): the index
// ends where it stops making sense.
func pageIndex() (pages []archivePage, data string) {
	head, data, ok := strings.Cut(playbookZ, "\n\n")
	if !ok {
		return nil, ""
	}
	start := 0
	for line := range strings.SplitSeq(head, "\n") {
		path, end, _ := strings.Cut(line, "\t")
		e, err := strconv.Atoi(end)
		if err != nil || e < start || e > len(data) {
			break
		}
		pages = append(pages, archivePage{path, start, e})
		start = e
	}
	return pages, data
}

// readPage is the page at path ("playbook/RULE.md"), or false.
func readPage(path string) ([]byte, bool) {
	pages, data := pageIndex()
	for _, p := range pages {
		if p.path != path {
			continue
		}
		zr := flate.NewReader(strings.NewReader(data[p.start:p.end]))
		b, err := io.ReadAll(zr)
		if err != nil {
			return nil, false
		}
		return b, true
	}
	return nil, false
}
