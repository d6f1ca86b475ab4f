package importer

import (
	"regexp"
	"sync/atomic"
)

// lazyRE is a pattern compiled the first time it is used. The readers'
// ~90 patterns, compiled at package initialisation, cost every start of
// every command ~4 ms and 1.1 MB in 7,300 allocations (0.3 MB held for
// the run), though only pasted text and logs are read with them: the
// dashboard, record and report of a recording never are
// (docs/benchmarks.md, "The dashboard's memory: the peak").
// TestLazyPatternsCompile compiles each one.
// Two readers asking at once may both compile it, to the same; an atomic
// pointer where a sync.Once was costs the binary 1.5 KB less of data.
type lazyRE struct {
	src string
	re  atomic.Pointer[regexp.Regexp]
}

// Inlined, so the compiler lays each &lazyRE{src: "..."} out as static
// data: out of line, each of the ~110 package variables cost a call and a
// write-barriered store in the package's init, 5.6 KB of code; inlined it is
// 3.1 KB of data and the binary 4 KB smaller (docs/benchmarks.md, "Corpus
// batch 16").
func lazy(src string) *lazyRE { return &lazyRE{src: src} }

// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func (l *lazyRE) get() *regexp.Regexp {
	re := l.re.Load()
	if re == nil {
		re = regexp.MustCompile(l.src)
		l.re.Store(re)
	}
	return re
}

func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }
func (l *lazyRE) Match(b []byte) bool       { return l.get().Match(b) }
func (l *lazyRE) FindString(s string) string {
	return l.get().FindString(s)
}
func (l *lazyRE) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRE) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}
