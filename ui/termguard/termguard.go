// Package termguard keeps gpuscope from asking the terminal anything before
// main runs.
//
// Bubble Tea v1 queries the terminal's background colour from a package
// init (tea_init.go: OSC 11, then a cursor-position report), and termenv
// waits up to 5 s for the answer. Serial consoles, `script`, some
// multiplexers, Emacs and CI never answer, so every command, `version`
// included, started 5.2 s late there (docs/benchmarks.md, "First frame in a
// terminal that never answers"). Go offers no way to run code before a
// dependency's init, but a C constructor runs before the Go runtime starts:
// it parks the terminal behind /dev/null on fd 1, so termenv sees no
// terminal and asks nothing, and Release puts it back as main's first step.
// gpuscope's themes name their colours and never need the answer.
package termguard

/*
#include <fcntl.h>
#include <unistd.h>

static int gpuscope_parked_stdout = -1;

__attribute__((constructor)) static void gpuscope_park_stdout(void) {
	if (!isatty(1)) return;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0) return;
	int saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (saved < 0 || dup2(null, 1) < 0) {
		if (saved >= 0) close(saved);
		close(null);
		return;
	}
	close(null);
	gpuscope_parked_stdout = saved;
}

// 1: the terminal is back on fd 1; 0: nothing was parked; -1: dup2 failed.
static int gpuscope_release_stdout(void) {
	int saved = gpuscope_parked_stdout;
	if (saved < 0) return 0;
	gpuscope_parked_stdout = -1;
	if (dup2(saved, 1) < 0) return -1;
	close(saved);
	return 1;
}
*/
import "C"

import (
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Release gives fd 1 its terminal back and rebuilds the default termenv
// output and lipgloss renderer, whose colour profile was read while fd 1
// was /dev/null. The renderer is told the background is dark so that no
// later style (bubbles' adaptive colours) queries the terminal while Bubble
// Tea owns it; gpuscope's own themes do not depend on it. Call it once,
// first thing in main; it does nothing when stdout was not a terminal.
func Release() {
	if C.gpuscope_release_stdout() != 1 {
		return
	}
	termenv.SetDefaultOutput(termenv.NewOutput(os.Stdout))
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetHasDarkBackground(true)
	lipgloss.SetDefaultRenderer(r)
}
