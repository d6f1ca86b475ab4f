package nvmlsource

import (
	"errors"
	"fmt"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// DefaultSlowInit: an nvmlInit slower than this is said on the dashboard.
// With persistence mode on it takes well under a second; without it the
// driver sets every GPU up for each new client, which takes seconds
// (docs/driver-compatibility.md, slow Init).
const DefaultSlowInit = 2 * time.Second

// ErrInitHung is wrapped by New's error when nvmlInit did not return within
// Options.InitTimeout (a wedged driver: docs/driver-compatibility.md).
var ErrInitHung = errors.New("nvmlInit did not return")

// initLibrary calls Init, within opts.InitTimeout when it is set, and
// returns how long it took. A call that does not return is left running:
// a cgo call cannot be cancelled, and the process goes on without NVML.
func initLibrary(lib Library, opts Options) (time.Duration, error) {
	start := time.Now()
	var r nvml.Return
	if opts.InitTimeout <= 0 {
		r = lib.Init()
	} else {
		done := make(chan nvml.Return, 1)
		go func() { done <- lib.Init() }()
		timer := time.NewTimer(opts.InitTimeout)
		defer timer.Stop()
		select {
		case r = <-done:
		case <-timer.C:
			return 0, fmt.Errorf("nvml: init: %w within %s", ErrInitHung, opts.InitTimeout)
		}
	}
	if r != nvml.SUCCESS {
		return 0, fmt.Errorf("nvml: init: %w", r)
	}
	return time.Since(start), nil
}

// slowInitLine says a slow start and its fix; "" when it was quick.
func slowInitLine(took time.Duration, opts Options) string {
	limit := opts.SlowInit
	if limit <= 0 {
		limit = DefaultSlowInit
	}
	if took < limit {
		return ""
	}
	return fmt.Sprintf("NVML took %.1f s to start: without persistence mode the driver sets every GPU up again for each client; "+
		"`sudo systemctl enable --now nvidia-persistenced` (or `sudo nvidia-smi -pm 1`) keeps it ready", took.Seconds())
}
