package sampler

import "strconv"

// Counted is n and its noun in English, one or other: "1 snapshot",
// "2 snapshots". Warnings and notes below ui are English only; ui's words
// choose plural forms through their message catalogues (ui/i18n).
func Counted(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + other
}
