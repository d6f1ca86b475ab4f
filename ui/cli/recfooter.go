package cli

import (
	"os"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// appendFooter reads the gzip recording record just closed as report
// would and appends that state as its footer (sampler/record/footer.go),
// which report and compare then read instead of the lines. A state that
// cannot be kept exactly, or a file the reader warned about, gets none:
// the recording is whole either way, so nothing is said.
func appendFooter(path, program string) {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || !strings.HasSuffix(path, ".gz") {
		return // a plain file has no place text tools skip; a pipe is not read back
	}
	f, err := importer.OpenFile(path)
	if err != nil {
		return
	}
	r, err := summary.BuildFrom(f, summary.Options{})
	f.Close()
	if err != nil {
		return
	}
	st := summary.StateOf(r)
	if st == nil {
		return
	}
	st.Program = program
	if b, err := summary.EncodeState(st); err == nil {
		record.AppendFooter(path, b) //nolint:errcheck // without a footer the file reads whole
	}
}

// footerReport is the report of path from its footer, or nil where the
// lines must be read: --full, standard input, --from or --to, no footer,
// one that fails a check or that another version wrote.
func footerReport(path string, opts summary.Options, program string, full bool) *summary.Report {
	if full || path == importer.Stdin || !opts.From.IsZero() || !opts.To.IsZero() {
		return nil
	}
	b, err := record.ReadFooter(path)
	if err != nil {
		return nil
	}
	st, err := summary.DecodeState(b)
	if err != nil || st.Program != program {
		return nil
	}
	opts.File, opts.Format = importer.DisplayName(path), st.Format
	return st.Report(opts)
}

// program is the build a footer names: only this one reads it.
func (d Deps) program() string { return d.Version + " " + d.Commit }
