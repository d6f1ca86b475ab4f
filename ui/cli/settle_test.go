package cli

import (
	"context"
	"testing"
	"time"
)

func TestSettleStartFreesOnceAfterTheStart(t *testing.T) {
	calls := 0
	begun := time.Now()
	settleStart(context.Background(), 20*time.Millisecond, func() { calls++ })
	if calls != 1 {
		t.Fatalf("free called %d times, want 1", calls)
	}
	if waited := time.Since(begun); waited < 20*time.Millisecond {
		t.Fatalf("free called after %v, before the start was over", waited)
	}
}

func TestSettleStartNotAfterQuit(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	settleStart(ctx, time.Hour, func() { called = true })
	if called {
		t.Fatal("free called after the dashboard had quit")
	}
}
