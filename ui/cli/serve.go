package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/podresources"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/gpuscope/gpuscope/ui/promexport"
	"github.com/spf13/cobra"
)

// serveFlags are the flags of `gpuscope serve`.
type serveFlags struct {
	listen, webConfig, demo string
	seed                    int64
	alert                   alertFlags
	gpus                    string
	interval                time.Duration
	noDCGM, noOwn           bool
	kubeletSocket           string
	maxRequests             int
	procSocket              string
}

func newServeCmd(d Deps, stderr io.Writer) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve this node's metrics and findings to Prometheus (/metrics, /snapshot, /findings)",
		Long: `serve samples this node (or the simulated one) every --interval, diagnoses each
tick, and serves the latest: /metrics in the Prometheus text format or
OpenMetrics, with dcgm-exporter's names (DCGM_FI_*) and gpuscope's own
(gpuscope_*, with per-process series and gpuscope_finding); /snapshot (the
--once --json document); /findings (JSON); /-/healthy and /-/ready. A scrape
never reads the GPUs. It binds to loopback unless --listen says otherwise;
--web.config.file adds TLS and basic auth (the exporter-toolkit file every
Prometheus exporter reads). docs/metrics.md lists every metric.`,
		Example: `  gpuscope serve                                  this node on 127.0.0.1:9400
  gpuscope serve --listen :9400 --web.config.file web.yml
  gpuscope serve --demo=input_starved --listen 127.0.0.1:9401`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.demo = demoFlag(cmd.Flags(), f.demo)
			return runServe(cmd.Context(), d, f, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:9400", "address to serve on (host:port; :9400 for every interface)")
	fl.StringVar(&f.webConfig, "web.config.file", "", "exporter-toolkit web config (TLS, basic auth)")
	fl.IntVar(&f.maxRequests, "web.max-requests", promexport.DefaultMaxRequests, "scrapes of /metrics answered at once; more get 503 (0: no limit)")
	fl.StringVar(&f.demo, "demo", "", "serve a simulated node; SCENARIO defaults to mixed")
	fl.Lookup("demo").NoOptDefVal = "mixed"
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the simulated node (it also picks its host name)")
	gpusFlag(fl, &f.gpus)
	addAlertFlags(fl, &f.alert)
	fl.DurationVar(&f.interval, "interval", time.Second, "sampling interval, 100ms to 60s")
	fl.BoolVar(&f.noDCGM, "no-dcgm-names", false, "leave out the dcgm-exporter-compatible DCGM_FI_* series")
	fl.BoolVar(&f.noOwn, "no-gpuscope-names", false, "leave out the gpuscope_* series")
	fl.StringVar(&f.procSocket, "proc-socket", "", "also answer containers, on this unix socket, for their own GPU processes in their PIDs (e.g. "+sampler.ProcSocketPath+", bind-mounted into them; docs/security.md)")
	fl.StringVar(&f.kubeletSocket, "kubelet-socket", podresources.DefaultSocket, "kubelet pod-resources socket: where readable, GPUs are labelled with their pod")
	return cmd
}

func runServe(ctx context.Context, d Deps, f serveFlags, stderr io.Writer) error {
	if err := checkInterval(f.interval); err != nil {
		return err
	}
	if f.noDCGM && f.noOwn {
		return usagef("serve_nothing", "--no-dcgm-names and --no-gpuscope-names together leave nothing to serve")
	}
	if f.maxRequests < 0 {
		return usagef("max_requests", "--web.max-requests %d: want 0 (no limit) or more", f.maxRequests)
	}
	if f.procSocket != "" && f.demo != "" {
		return usagef("proc_socket_demo", "--proc-socket with --demo: the simulated node's processes are not this machine's; leave one out")
	}
	if f.demo == "list" {
		return usagef("demo_list", "--demo=list: run `gpuscope --demo=list` to list the scenarios")
	}
	tls, auth, err := promexport.ValidateWebConfig(f.webConfig)
	if err != nil {
		return usageError{err}
	}
	start := time.Now().Add(-prerollDemo)
	src, err := openSource(d, f.demo, false, f.seed, start, f.gpus, stderr)
	if err != nil {
		return err
	}
	if e := src.GPUError; e != nil { // still served: the host figures and gpu_error in /snapshot
		fmt.Fprintf(stderr, "gpuscope: no GPU to export (%s: %s); serving the host only (try gpuscope doctor, or --demo)\n", e.Tried, e.Err)
	}
	src.SetInterval(f.interval)
	var history []sampler.Snapshot
	if src.simulated {
		history = sampler.Preroll(src.Sampler, start, time.Now(), f.interval)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := promexport.Options{DCGM: !f.noDCGM, Own: !f.noOwn, Version: d.Version, MaxRequests: f.maxRequests}
	pods := "" // d.Live watches the default socket; another one replaces it
	if !src.simulated && f.kubeletSocket != podresources.DefaultSocket && d.WatchPods != nil {
		d.WatchPods(src.Sampler, f.kubeletSocket)
	}
	if src.PodOf != nil && !src.simulated {
		opts.Pods, pods = true, ", pods from "+f.kubeletSocket
	}
	state := promexport.NewState()
	h, err := promexport.Handler(state, opts)
	if err != nil {
		_ = src.Close()
		return err
	}
	notify, sinks, err := f.alert.notifier(i18n.For("en")) // a webhook's readers: the exporter's metrics are English too
	if err != nil {
		_ = src.Close()
		return err
	}
	procsDone, sinks, err := serveProcs(ctx, d, f.procSocket, sinks, stderr)
	if err != nil {
		_ = src.Close()
		return err
	}
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		promexport.Feed(ctx, src.Sampler, history, state, sinks...)
	}()
	err = promexport.Serve(ctx, h, promexport.ServeConfig{
		Listen: f.listen, WebConfigFile: f.webConfig,
		ErrorLog: stderr,
		Started: func(addr net.Addr) {
			fmt.Fprintf(stderr, "gpuscope: serving %s (%s%s) on %s%s: /metrics /snapshot /findings /-/healthy /-/ready\n",
				src.Hostname, src.badge, pods, promexport.URL(addr, tls), map[bool]string{true: " with basic auth"}[auth])
		},
	})
	// A Serve that failed (a busy port) ends the feeder too; NVML is shut
	// down only once the feeder has stopped sampling it.
	stop()
	<-fed
	<-procsDone
	if notify != nil {
		notify.Close(alertClose)
	}
	if cerr := src.Close(); err == nil && cerr != nil {
		fmt.Fprintf(stderr, "gpuscope: closing the GPU source: %v\n", cerr)
	}
	return err
}

// serveProcs starts answering containers on path (--proc-socket) from the
// latest snapshot, which a sink of the one loop keeps; done closes once the
// socket is closed. No path: nothing, done already closed.
func serveProcs(ctx context.Context, d Deps, path string, sinks []pipeline.Sink, stderr io.Writer) (done chan struct{}, _ []pipeline.Sink, _ error) {
	done = make(chan struct{})
	if path == "" || d.ServeProcs == nil {
		close(done)
		return done, sinks, nil
	}
	var latest atomic.Pointer[[]sampler.GPU]
	serve, err := d.ServeProcs(path, func() []sampler.GPU {
		if g := latest.Load(); g != nil {
			return *g
		}
		return nil
	})
	if err != nil {
		close(done)
		return done, nil, fmt.Errorf("--proc-socket %s: %w", path, err)
	}
	sinks = append(sinks, pipeline.Sink{Name: "process socket", Take: func(f diagnose.Frame) error {
		latest.Store(&f.Snapshot.GPUs)
		return nil
	}})
	fmt.Fprintf(stderr, "gpuscope: answering containers for their own GPU processes on %s\n", path)
	go func() {
		defer close(done)
		if err := serve(ctx); err != nil {
			fmt.Fprintf(stderr, "gpuscope: the process socket %s stopped: %v\n", path, err)
		}
	}()
	return done, sinks, nil
}
