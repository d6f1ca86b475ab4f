package importer

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// pasteStream yields the merged picture of pasted text.
type pasteStream struct {
	pic picture
	i   int
}

func (s *pasteStream) Next() (sampler.Snapshot, error) {
	if s.i >= len(s.pic.snaps) {
		return sampler.Snapshot{}, io.EOF
	}
	s.i++
	return s.pic.snaps[s.i-1], nil
}

func (s *pasteStream) Warnings() []string { return s.pic.warn }
func (s *pasteStream) Close() error       { return nil }
func (s *pasteStream) Sections() []string { return s.pic.sections }

// Where implements Evidence. A field read from a streamed log (CSV, dmon)
// is located by its section; field "" names the section of the GPU's
// series, else the first line about it.
func (s *pasteStream) Where(gpu int, field string) string {
	if w := s.pic.at[fieldAt{gpu, field}]; w != "" && field != "" {
		return w
	}
	if w := s.pic.at[fieldAt{gpu, "*"}]; w != "" {
		return w
	}
	if field != "" {
		return ""
	}
	var all []string
	for k, v := range s.pic.at {
		if k.gpu == gpu {
			all = append(all, v)
		}
	}
	sort.Strings(all)
	if len(all) == 0 {
		return ""
	}
	return all[0]
}

// newPaste reads text of unknown shape section by section.
func newPaste(inputs []textInput, name string, o Options) (Stream, error) {
	var secs []section
	for _, in := range inputs {
		secs = append(secs, splitPaste(in.file, in.lines)...)
	}
	parts := readSections(secs, o)
	pic := merge(parts, o)
	if len(pic.snaps) == 0 {
		if errorLinesOnly(parts) {
			return nil, fmt.Errorf("%s: no GPU reading to judge; %s", name, summary(parts))
		}
		return nil, fmt.Errorf("%s: not a log gpuscope can read; recognised: %s; %s", name, recognisedAll, summary(parts))
	}
	return &pasteStream{pic: pic}, nil
}

// errorLinesOnly: the text was read, and what it holds is a tool's error
// that names its cause (nvidia-smi's failure, a container runtime's, Slurm's, a GPU sharing layer's), so
// the refusal leads with that cause instead of the list of formats.
func errorLinesOnly(parts []*part) bool {
	named := false
	for _, p := range parts {
		switch p.sec.kind {
		case kindOther:
		case kindSMIError, kindCtrRuntime, kindSlurmGRES, kindShareErr:
			named = named || p.skipped != ""
		default:
			return false
		}
	}
	return named
}

// textInput is one file's lines (file "" for a single input).
type textInput struct {
	file  string
	lines []string
}

// summary says in one clause what the sections were.
func summary(parts []*part) string {
	if len(parts) == 0 {
		return "it holds no text"
	}
	var kinds []string
	seen := map[string]bool{}
	for _, p := range parts {
		k := p.sec.kind
		if p.skipped != "" && k != kindOther {
			k += " (" + p.skipped + ")"
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	return "it holds: " + strings.Join(kinds, "; ")
}

// recognisedAll lists every readable input, for messages.
const recognisedAll = recognised + ", the nvidia-smi table, nvidia-smi -q text, nvidia-smi topo -m, " +
	"kernel log Xid lines, nvidia-bug-report.log, or several of these pasted together"

// OpenAll reads several files of one node ("report A B C") as one
// picture: each file is cut into sections like pasted text and merged.
func OpenAll(paths []string, o Options) (Stream, error) {
	var inputs []textInput
	for _, path := range paths {
		src, err := OpenSource(path, nil)
		if err != nil {
			return nil, err
		}
		ls, err := readText(src, DisplayName(path))
		src.Close()
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, textInput{file: DisplayName(path), lines: ls})
	}
	if len(paths) > 0 {
		o = o.withDefaults(paths[0])
	}
	return newPaste(inputs, strings.Join(paths, " + "), o.withDefaults(""))
}
