// Package billingtest starts stripe-mock for tests of request shapes.
package billingtest

import (
	"context"
	"fmt"
	"go/build"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// StripeMock starts stripe-mock on a free loopback port and returns its
// base URL; the test is skipped when the binary is not installed (`go
// install github.com/stripe/stripe-mock@latest`). It is stopped when the
// test ends.
func StripeMock(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		bin = filepath.Join(build.Default.GOPATH, "bin", "stripe-mock")
		if _, err := os.Stat(bin); err != nil {
			t.Skip("stripe-mock is not installed (go install github.com/stripe/stripe-mock@latest): skipping the request-shape tests")
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "-http-addr", addr)
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatalf("start stripe-mock: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cancel(); <-exited }
		if waitListening(addr, exited) {
			t.Cleanup(stop)
			return fmt.Sprintf("http://%s", addr)
		}
		stop()
	}
	t.Fatal("stripe-mock did not start listening")
	return ""
}

func waitListening(addr string, exited <-chan struct{}) bool {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
