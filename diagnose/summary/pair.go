package summary

import (
	"sync"

	"github.com/gpuscope/gpuscope/sampler/importer"
)

// BuildPair reports two opened inputs at once, each on its own goroutine:
// compare waits for the slower of the two rather than their sum (the
// reports share nothing). The first error, in argument order, is returned.
func BuildPair(base, after *importer.File, opts Options) (b, a *Report, err error) {
	var wg sync.WaitGroup
	var errA, errB error
	wg.Go(func() { b, errA = BuildFrom(base, opts) })
	wg.Go(func() { a, errB = BuildFrom(after, opts) })
	wg.Wait()
	if errA != nil {
		return nil, nil, errA
	}
	if errB != nil {
		return nil, nil, errB
	}
	return b, a, nil
}
