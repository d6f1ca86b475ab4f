package live

import (
	"context"
	"os"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/procsock"
)

// UseProcSocket makes s take this container's own GPU processes from the
// socket of `gpuscope serve --proc-socket` on the host, where a socket is
// at path (bind-mounted into the container), whenever NVML's PIDs cannot be
// joined here (docs/user-guide.md, "Inside a container"). It reports
// whether the socket was there.
func UseProcSocket(s *sampler.Sampler, path string) bool {
	if fi, err := os.Stat(path); err != nil || fi.Mode().Type() != os.ModeSocket {
		return false
	}
	s.Procs = procsock.Client{Path: path, ProcRoot: "/proc"}
	return true
}

// ServeProcs listens at path for containers asking for their own GPU
// processes, answered from the snapshot latest returns and this PID
// namespace's /proc; serve runs until its context ends and removes the
// socket.
func ServeProcs(path string, latest func() []sampler.GPU) (serve func(context.Context) error, err error) {
	ln, err := procsock.Listen(path)
	if err != nil {
		return nil, err
	}
	srv := &procsock.Server{FS: procsock.ProcDir{Root: "/proc"}, Latest: latest}
	return func(ctx context.Context) error { return srv.Serve(ctx, ln) }, nil
}
