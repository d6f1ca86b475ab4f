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
