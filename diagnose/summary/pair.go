package summary

import "sync"

// BuildPair reports two files at once, each on its own goroutine: compare
// waits for the slower of the two rather than their sum (the reports share
// nothing). The first error, in argument order, is returned.
func BuildPair(basePath, afterPath string, opts Options) (base, after *Report, err error) {
	var wg sync.WaitGroup
	var errA, errB error
	wg.Go(func() { base, errA = BuildFile(basePath, opts) })
	wg.Go(func() { after, errB = BuildFile(afterPath, opts) })
	wg.Wait()
	if errA != nil {
		return nil, nil, errA
	}
	if errB != nil {
		return nil, nil, errB
	}
	return base, after, nil
}
