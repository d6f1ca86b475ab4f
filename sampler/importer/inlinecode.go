package importer

import "strings"

// inlineCode takes off a Markdown code span around a whole line: a
// one-line error pasted in a sentence's place between single backticks
// ("`NVIDIA-SMI has failed because ...`"), which GitHub and the forums show
// as code. CommonMark's spans of more backticks ("“a ` b“") and lines
// that only start or end with one are left as they are.
func inlineCode(s string) string {
	t := strings.TrimSpace(s)
	if len(t) < 3 || t[0] != '`' || t[len(t)-1] != '`' || t[1] == '`' || strings.Count(t, "`") != 2 {
		return s
	}
	return t[1 : len(t)-1]
}
