package sampler

import (
	"context"
	"testing"
	"time"
)

// A shorter interval takes effect at once: before, Run slept out the old
// interval (here a minute) before it noticed.
func TestLoopWakesOnIntervalChange(t *testing.T) {
	s := &Sampler{}
	s.SetInterval(MaxInterval)
	ctx, cancel := context.WithCancel(context.Background())
	ticks := make(chan Snapshot, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Loop(ctx, nil, func(snap Snapshot) {
			select {
			case ticks <- snap:
			default:
			}
		})
	}()
	<-ticks
	s.SetInterval(MinInterval)
	select {
	case <-ticks:
	case <-time.After(20 * time.Second): // far below the 60 s the old interval would take
		t.Fatal("the loop kept sleeping out the old interval")
	}
	cancel()
	<-done
}

func TestCloseWithoutGPU(t *testing.T) {
	if err := (&Sampler{}).Close(); err != nil {
		t.Fatal(err)
	}
}
