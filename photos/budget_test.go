package photos

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A budget grants shares while it has room, makes the next request wait
// for a release, tells it the server is busy after budgetWait, and gives
// up with the request's own context.
func TestBudgetWaitsThenTellsBusy(t *testing.T) {
	b := NewBudget(100)
	if _, err := b.Acquire(context.Background(), 101); !errors.Is(err, errTooBig) {
		t.Fatalf("a share larger than the budget: %v", err)
	}
	first, err := b.Acquire(context.Background(), 60)
	if err != nil {
		t.Fatal(err)
	}
	// The rest is free at once.
	second, err := b.Acquire(context.Background(), 40)
	if err != nil {
		t.Fatal(err)
	}
	second()
	second() // a second call gives nothing back twice

	// Full: a request waits until a share comes back.
	got := make(chan error, 1)
	go func() {
		release, err := b.Acquire(context.Background(), 50)
		if err == nil {
			defer release()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("granted while the budget was taken: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	first()
	if err := <-got; err != nil {
		t.Fatalf("after the release: %v", err)
	}

	// Taken for longer than budgetWait: busy.
	defer func(w time.Duration) { budgetWait = w }(budgetWait)
	budgetWait = 30 * time.Millisecond
	hold, err := b.Acquire(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	if _, err := b.Acquire(context.Background(), 1); !errors.Is(err, ErrBusy) {
		t.Fatalf("budget taken past budgetWait: %v, want ErrBusy", err)
	}
	// The request's own end comes first: its error, not busy.
	budgetWait = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.Acquire(ctx, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request ended while waiting: %v", err)
	}
	if b.peak.Load() != 100 {
		t.Fatalf("peak %d, want 100", b.peak.Load())
	}
}
