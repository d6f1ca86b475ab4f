package importer

import "strings"

// unquote removes markdown's marks around a pasted line: a blockquote
// "> " (quoted again in a reply: "> > ", ">> ") and an escaped "\#" at the
// start. It also takes off a launcher's label: the label Ray puts before each
// line a remote task or actor prints, "(pid=1234, ip=10.0.0.5) " or
// "(TrainWorker pid=957, ip=...) ", and the launchers that copy it
// (SkyPilot's "(sky-cmd, pid=13008) ", vLLM's workers' "(VllmWorker rank=0
// pid=10672) "): a process id in parentheses opening the line, the tool's
// own text after it.
func unquote(s string) string {
	s = unquoteReply(s)
	if strings.HasPrefix(s, "(") {
		if i := strings.IndexByte(s, ')'); len(s) > i+1 && s[i+1] == ' ' && strings.Contains(s[:i], "pid=") {
			s = s[i+2:] // a launcher's label on a remote task's line
		}
	}
	if t := strings.TrimSpace(s); t != "" && t[0] == '`' && t[len(t)-1] == '`' && strings.Count(t, "`") == 2 {
		s = t[1 : len(t)-1] // a whole line as a Markdown code span ("`NVIDIA-SMI has failed ...`"); ``a ` b`` stays
	} else if strings.Count(s, "`") >= 2 {
		s = errorSpan(s)
	}
	if s == "%" {
		return ""
	}
	if strings.HasPrefix(s, "% ") { // MATLAB's comment
		s = s[2:]
	}
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "# +") || strings.HasPrefix(t, "# |") || t == "#" {
		return strings.TrimPrefix(t, "#")[min(1, len(t)-1):] // a table commented out line by line
	}
	if strings.HasPrefix(strings.TrimLeft(s, " "), `\#`) {
		s = strings.Replace(s, `\#`, "#", 1)
	}
	return s
}

// errorSpan: nvidia-smi's error line quoted as a code span inside a
// sentence ("fails with the error: `Failed to initialize NVML: Unknown
// Error`."). The backticks mark the tool's own words, as the PCI address
// does for smiErrQuotedRE, so the span is the line; a sentence whose spans
// hold other words stays prose.
func errorSpan(s string) string {
	parts := strings.Split(s, "`")
	for i := 1; i+1 < len(parts); i += 2 {
		if smiErrRE.MatchString(parts[i]) {
			return parts[i]
		}
	}
	return s
}
