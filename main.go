// Command gpuscope is a terminal dashboard for NVIDIA GPU nodes that also
// says why a GPU is idle and what to change.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gpuscope: under construction")
	os.Exit(1)
}
