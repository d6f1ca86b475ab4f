package spool

import (
	"fmt"
	"os"
	"syscall"
)

// cancellableStdin is standard input as a file whose Close ends a Read
// blocked in it: a duplicate of fd 0, non-blocking so that the runtime's
// poller holds it (os.Stdin itself is blocking, and a Read blocked in it
// cannot be interrupted). Where the poller cannot take it (a regular file
// redirected with <), reads never block for long anyway.
func cancellableStdin() (*os.File, error) {
	fd, err := syscall.Dup(int(syscall.Stdin))
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("standard input: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/stdin"), nil
}
