package summary

import "github.com/gpuscope/gpuscope/sampler/importer"

// buildFile is report PATH as the command runs it: open, build, close.
func buildFile(path string, opts Options) (*Report, error) {
	return buildFiles([]string{path}, opts)
}

func buildFiles(paths []string, opts Options) (*Report, error) {
	f, err := importer.OpenFiles(paths)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return BuildFrom(f, opts)
}
