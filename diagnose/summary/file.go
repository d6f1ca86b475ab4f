package summary

import "github.com/gpuscope/gpuscope/sampler/importer"

// BuildFrom builds the report of an opened input (importer.OpenFile,
// importer.OpenFiles) and adds the reader's warnings. The caller opens and
// closes it: diagnose opens no file.
func BuildFrom(f *importer.File, opts Options) (*Report, error) {
	opts.File, opts.Format = f.Name, f.Format
	if ev, ok := f.Evidence(); ok {
		opts.Sections, opts.Where = ev.Sections(), ev.Where
	}
	r, err := Build(f, opts)
	if err != nil {
		return nil, err // Build's errors name the file
	}
	r.Warnings = append(r.Warnings, f.Warnings()...)
	return r, nil
}
