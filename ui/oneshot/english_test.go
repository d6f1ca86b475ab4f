package oneshot

import (
	"io"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Write is WriteLang in English, as most tests read it.
func Write(w io.Writer, s sampler.Snapshot) error { return WriteLang(w, s, i18n.For("en")) }
