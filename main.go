// Command gpuscope is a terminal dashboard for NVIDIA GPU nodes that also
// says why a GPU is idle and what to change. The command line lives in
// ui/cli; main builds what touches the hardware (the live node through NVML
// and /proc, the demo's fake driver, doctor), injects it into cli.Deps, runs
// the command and exits with its status.
package main

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/doctor"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/sampler/node/live"
	"github.com/gpuscope/gpuscope/ui/cli"
	"github.com/gpuscope/gpuscope/ui/termguard"
)

// Set by the linker (-X main.version=... -X main.commit=...) in `make dist`
// and `make build`.
var (
	version = "dev"
	commit  = "unknown"
)

func main() {
	termguard.Release()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the CLI and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	cmd, err := cli.Execute(context.Background(), root)
	return cli.ExitStatus(cmd, err, stderr)
}

// newRootCmd is the command tree over this machine's hardware.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	return cli.NewRoot(cli.Deps{
		Version:    version,
		Commit:     commit,
		Live:       live.Open,
		WatchPods:  live.WatchPods,
		ProcSocket: live.UseProcSocket,
		ServeProcs: live.ServeProcs,
		Demo:       openDemo,
		Faults:     demoFaults,
		Doctor:     runDoctor,
		Getenv:     os.Getenv,
	}, stdout, stderr)
}

// openDemo builds the simulated node (sim → fake NVML → the production
// NVML reader) with faults injected through the fake driver.
func openDemo(scenario string, seed int64, start time.Time, faults []string) (*sampler.Sampler, error) {
	d, err := node.NewDemo(scenario, seed, start)
	if err != nil {
		return nil, err
	}
	if err := d.Inject(faults); err != nil {
		return nil, err
	}
	return d.Sampler(scenario), nil
}

func demoFaults() []cli.Fault {
	var out []cli.Fault
	for _, f := range node.Faults() {
		out = append(out, cli.Fault{ID: f.ID, Summary: f.Summary})
	}
	return out
}

// runDoctor loads NVML itself to check what a GPU needs, and hands the
// checks to the command, which prints them.
func runDoctor() []cli.DoctorCheck {
	env := doctor.System()
	if env.InitErr == nil {
		defer env.NVML.Shutdown()
	}
	var out []cli.DoctorCheck
	for _, c := range doctor.Run(env) {
		out = append(out, cli.DoctorCheck{Name: c.Name, Status: string(c.Status), Seen: c.Seen, Fix: c.Fix,
			ID: c.ID, SeenMsg: cli.DoctorMsg(c.SeenMsg), FixMsg: cli.DoctorMsg(c.FixMsg)})
	}
	return out
}
