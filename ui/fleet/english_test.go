package fleet

import (
	"io"

	"github.com/gpuscope/gpuscope/ui/i18n"
)

// WriteText is WriteTextLang in English, as most tests read it.
func WriteText(w io.Writer, v View) error { return WriteTextLang(w, v, i18n.For("en")) }

func newWords(lang string) words { return words{i18n.For(lang)} }
