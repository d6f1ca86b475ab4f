package promexport

import (
	"io"
	"log"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// warnLog is the HTTP server's error log: each line written as log/slog's
// text handler wrote it at WARN through slog.NewLogLogger, which this
// replaces ("time=2026-12-07T16:05:00.123+01:00 level=WARN msg=\"http: TLS
// handshake error from …\""), held to it by TestWarnLogAsSlog and
// FuzzWarnLog. Not slog itself: it cost the release binary 79 KB for
// these lines (docs/benchmarks.md, "The binary's size:
// text/template's methods").
func warnLog(w io.Writer) *log.Logger { return log.New(warnWriter{w}, "", 0) }

type warnWriter struct{ w io.Writer }

func (ww warnWriter) Write(p []byte) (int, error) {
	msg := p
	if n := len(msg); n > 0 && msg[n-1] == '\n' {
		msg = msg[:n-1]
	}
	b := make([]byte, 0, len(msg)+64)
	b = append(b, "time="...)
	b = time.Now().Truncate(time.Millisecond).AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, " level=WARN msg="...)
	if s := string(msg); needsQuoting(s) {
		b = strconv.AppendQuote(b, s)
	} else {
		b = append(b, s...)
	}
	_, err := ww.w.Write(append(b, '\n'))
	return len(p), err
}

// needsQuoting is log/slog's rule for a text value: empty, or holding a
// space, '=', '"', an ASCII control (DEL is not quoted), invalid UTF-8, or
// a rune that is a space or not printable.
func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b <= ' ' || b == '=' || b == '"' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
