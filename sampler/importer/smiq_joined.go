package importer

import "strings"

// joinedQuery: -q text whose line ends were lost, as a forum's Markdown
// quote renders a paste ("> ===NVSMI LOG=== Timestamp : ... Driver Version
// : ..."), so one line holds many "Key : value" pairs. nvidia-smi prints
// one pair a line and never " : " inside a value, so a second " : " on a
// line is the join (docs/corpus-copies.md). Its nesting (which Memory is
// FB, BAR1 or a clock) is gone with the line ends, so the section is
// refused whole, the same for the paste and for any copy that cuts the
// joined line again (a terminal's hard wrap makes pieces that each look
// like a fragment of a GPU block).
func joinedQuery(ls []string) bool {
	for _, l := range ls {
		if _, v, ok := splitQ(strings.TrimSpace(l)); ok && strings.Contains(v, " : ") {
			return true
		}
	}
	return false
}

// joinedQueryWhy is the refusal's reason: what the text is and what to do.
const joinedQueryWhy = "lines joined into one by a forum's quote; paste nvidia-smi -q as printed, in a code block"
