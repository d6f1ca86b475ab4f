package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gpuscope/gpuscope/sampler/record"
)

// What the section reader (pasted text, a bug report) holds in memory. It
// reads the whole input before it parses, so these bound its memory on any
// input (docs/security.md, "Hostile files"): binary data is refused in the
// first chunk, text without line breaks within its first MiB, a gzip bomb
// of short lines at 2^20 lines; the largest text accepted is read at
// ~100-120 MB peak RSS, of which ~40 MB is the binary.
const (
	// maxPasteBytes: an nvidia-bug-report.log of an 8-GPU node is 5-30 MiB;
	// a log of gigabytes is a streaming format (CSV, dmon), not this.
	maxPasteBytes = 32 << 20
	// maxPasteLines: such a report has under a million lines (~40 bytes
	// each); a million line headers are 16 MB.
	maxPasteLines = 1 << 20
	// maxPasteLineBytes: no line of nvidia-smi, dmesg or a bug report
	// comes near 1 MiB.
	maxPasteLineBytes = 1 << 20
	// pasteDecideBytes: the UTF-8 test runs once this much is read, so
	// binary data is refused before much is held.
	pasteDecideBytes = 4 << 20
	pasteChunkBytes  = 64 << 10
)

// readText reads a whole text input, gunzipping it if needed, as lines
// (without "\n" or "\r\n"), within the bounds above.
func readText(r io.Reader, name string) ([]string, error) {
	br, err := record.Decompressed(bufio.NewReaderSize(r, readBufBytes), name)
	if err != nil {
		return nil, err
	}
	var (
		sb       strings.Builder
		chunk    = make([]byte, pasteChunkBytes)
		lines    int
		lineLen  int
		utf8Seen bool
	)
	notLog := func(why string) error {
		return fmt.Errorf("%s: not a log gpuscope can read; recognised: %s; %s", name, recognisedAll, why)
	}
	for {
		n, rerr := br.Read(chunk)
		c := chunk[:n]
		if bytes.IndexByte(c, 0) >= 0 {
			return nil, notLog("it holds binary data")
		}
		for {
			i := bytes.IndexByte(c, '\n')
			if i < 0 {
				lineLen += len(c)
				break
			}
			if lineLen+i > maxPasteLineBytes {
				break
			}
			lines, lineLen, c = lines+1, 0, c[i+1:]
		}
		switch {
		case lineLen > maxPasteLineBytes:
			return nil, notLog(fmt.Sprintf("line %d is longer than %d MiB", lines+1, maxPasteLineBytes>>20))
		case lines > maxPasteLines:
			return nil, fmt.Errorf("%s: more than %d lines of text that is not one log from its first line; "+
				"cut out the part with the GPU output", name, maxPasteLines)
		case sb.Len()+n > maxPasteBytes:
			return nil, fmt.Errorf("%s: more than %d MiB of text that is not one log from its first line; "+
				"cut out the part with the GPU output", name, maxPasteBytes>>20)
		}
		sb.Write(chunk[:n])
		if !utf8Seen && sb.Len() >= pasteDecideBytes {
			utf8Seen = true
			if head := sb.String()[:sb.Len()-utf8.UTFMax]; !utf8.ValidString(head) {
				return nil, notLog("it holds binary data")
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if sb.Len() == 0 {
				return nil, fmt.Errorf("%s: %w", name, rerr)
			}
			break // a cut gzip stream: what came before it is read
		}
	}
	text := sb.String()
	if !utf8.ValidString(text) && !utf8.ValidString(text[:len(text)*3/4]) {
		return nil, notLog("it holds binary data")
	}
	out := strings.Split(uncopiedText(text), "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out, nil
}
