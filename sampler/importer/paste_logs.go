package importer

import "strings"

// streamRun recognises a log the streaming importers read (dmon, pmon,
// dcgmi dmon, --query-gpu CSV, XML) starting at ls[i], and its extent.
func streamRun(ls []string, i int) (Format, int) {
	t := strings.TrimSpace(ls[i])
	switch {
	case strings.HasPrefix(t, "<?xml") || strings.HasPrefix(t, "<nvidia_smi_log") || strings.HasPrefix(t, "<!DOCTYPE nvidia_smi_log"):
		for j := i; j < len(ls); j++ {
			if strings.Contains(ls[j], "</nvidia_smi_log>") {
				return SMIXML, j - i + 1
			}
		}
		// Cut before its end (smixml.go reads what came before the cut):
		// the document is its element lines, not the text pasted after.
		return SMIXML, runWhile(ls, i, func(s string) bool { t := strings.TrimSpace(s); return t == "" || t[0] == '<' })
	case strings.HasPrefix(t, "#"):
		f := detectHashHeader(t)
		if f == Unknown {
			return commentedCSV(ls, i)
		}
		return f, runWhile(ls, i, func(s string) bool {
			s = strings.TrimSpace(s)
			return s == "" || strings.HasPrefix(s, "#") || isDataRow(s) || s == "ID" || strings.HasPrefix(s, "ID ")
		})
	case strings.Contains(t, ","):
		cells := splitCSV(t)
		if !isSMICSVHeader(cells) && !headerlessLayout(cells) {
			return Unknown, 0
		}
		return SMICSV, runWhile(ls, i, func(s string) bool { return strings.Contains(s, ",") || strings.TrimSpace(s) == "" })
	}
	return Unknown, 0
}

// headerStart: the first names of dmon, pmon and dcgmi header lines (a
// switch, not a map literal built by init, as dmonKnown).
func headerStart(name string) bool {
	switch name {
	case "gpu", "date", "time", "entity", "#entity":
		return true
	}
	return false
}

// commentedCSV: a --query-gpu log whose every line was commented out with
// "#" (seen in pasted notebooks).
func commentedCSV(ls []string, i int) (Format, int) {
	cells := splitCSV(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(ls[i]), "#")))
	if !isSMICSVHeader(cells) {
		return Unknown, 0
	}
	return SMICSV, runWhile(ls, i, func(s string) bool {
		s = strings.TrimSpace(s)
		return s == "" || strings.HasPrefix(s, "#") && strings.Contains(s, ",")
	})
}

// noheaderRun counts the rows after a noheader command line that have as
// many fields as its header.
func noheaderRun(ls []string, i int, header string) int {
	want := strings.Count(header, ",")
	return runWhile(ls, i, func(s string) bool {
		return strings.TrimSpace(s) != "" && strings.Count(s, ",") == want
	})
}

// isDataRow: a dmon/pmon/dcgmi row starts with a digit, a date or an
// entity name ("GPU 0").
func isDataRow(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return (c >= '0' && c <= '9') || strings.HasPrefix(s, "GPU ") || strings.HasPrefix(s, "GPU-I") || c == '-'
}
