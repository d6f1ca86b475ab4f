package cli

import (
	"fmt"
	"io"
	"runtime"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/spf13/cobra"
)

func newVersionCmd(d Deps, stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(stdout, "gpuscope %s (commit %s, %s/%s, snapshot format %d)\n",
				d.Version, d.Commit, runtime.GOOS, runtime.GOARCH, sampler.FormatVersion)
			return nil
		},
	}
}

func newDoctorCmd(d Deps, stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check why a GPU may be invisible or slow to reach (driver, devices, container, WSL, env)",
		Long: `doctor checks, in the order a person would look: the NVML library and driver,
the /dev/nvidia* device nodes, whether this is a container and whether GPUs were
passed in, WSL2's /dev/dxg, CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES (what
they hide or renumber), persistence mode and MIG mode. Each check is ok, warn or
fail, with what was seen and the fix. Exit status 1 when any check fails.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			failed, err := d.Doctor(stdout, asJSON)
			if err != nil {
				return err
			}
			if failed {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	return cmd
}
