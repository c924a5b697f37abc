package server

import (
	"context"
	"fmt"
	"net"
	"testing"

	"github.com/layerfix/layerfix/config"
)

// TestIPv6CountedPerPrefix: the addresses of one /64 share one allowance;
// IPv4-mapped IPv6 is the IPv4 address.
func TestIPv6CountedPerPrefix(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for i := 1; i <= 3; i++ {
		if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", fmt.Sprintf("[2001:db8:7:9::%x]:4000", i)); w.Code != 200 {
			t.Fatalf("analysis %d: %d", i, w.Code)
		}
	}
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "[2001:db8:7:9:dead:beef:1:2]:4000"); w.Code != 429 {
		t.Fatalf("a fourth address of the same /64: %d", w.Code)
	}
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "[2001:db8:7:a::1]:4000"); w.Code != 200 {
		t.Fatalf("another /64: %d", w.Code)
	}
	for i := 0; i < 3; i++ {
		ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "198.51.100.20:1")
	}
	if w := ts.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", "[::ffff:198.51.100.20]:1"); w.Code != 429 {
		t.Fatalf("IPv4-mapped address counted apart: %d", w.Code)
	}
	if got := clientNetwork("2001:db8:7:9::1", 56); got != "2001:db8:7::/56" {
		t.Fatalf("a /56 setting: %s", got)
	}
}

// TestNetworkBoundsUnverifiedAccounts: unverified free accounts share their
// network's monthly allowance with anonymous use; a verified one does not.
func TestNetworkBoundsUnverifiedAccounts(t *testing.T) {
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) { c.NetworkLimit = 4 })
	const home = "203.0.113.50:1"
	for i := 0; i < 3; i++ {
		ws.do(t, "POST", "/api/troubleshoot", validTroubleshoot(nil), "RemoteAddr", home)
	}
	submit := func(auth []string, printerID int64) int {
		return ws.do(t, "POST", "/api/issues", issueBody(t, printerID, nil), append(auth, "RemoteAddr", home)...).Code
	}
	a := ws.user(t, "a@example.com")
	pa := ws.addPrinter(t, a, "A", "Prusa")
	if c := submit(a, pa.ID); c != 201 {
		t.Fatalf("the network's fourth analysis: %d", c)
	}
	b := ws.user(t, "b@example.com")
	pb := ws.addPrinter(t, b, "B", "Prusa")
	if c := submit(b, pb.ID); c != 429 {
		t.Fatalf("a second unverified account past the network's allowance: %d", c)
	}
	if n := ws.usage(t, b); n != 0 {
		t.Fatalf("the refused analysis cost the account %d credits", n)
	}
	u, _ := ws.store.UserByEmail(context.Background(), "b@example.com")
	ws.store.UpdateUser(context.Background(), u.ID, map[string]any{"email_verified": true})
	if c := submit(b, pb.ID); c != 201 {
		t.Fatalf("a verified account is held to the network's allowance: %d", c)
	}
}

// TestRequireVerified: with the setting on, an unverified free account gets
// a clear 403 and no analysis; once verified it gets its credits.
func TestRequireVerified(t *testing.T) {
	ws := newWorkspace(t, nil, func(c *config.Config, d *Deps) { c.RequireVerified = true })
	a := ws.user(t, "a@example.com")
	p := ws.addPrinter(t, a, "A", "Prusa")
	w := ws.do(t, "POST", "/api/issues", issueBody(t, p.ID, nil), a...)
	if w.Code != 403 || decodeError(t, w).Code != CodeEmailNotVerified {
		t.Fatalf("unverified: %d %s", w.Code, w.Body.String())
	}
	u, _ := ws.store.UserByEmail(context.Background(), "a@example.com")
	ws.store.UpdateUser(context.Background(), u.ID, map[string]any{"email_verified": true})
	ws.submit(t, a, issueBody(t, p.ID, nil))
	if _, err := config.Load(nil, func(k string) string { return map[string]string{"LAYERFIX_REQUIRE_VERIFIED": "on"}[k] }); err == nil {
		t.Fatal("require-verified without any way to verify was accepted")
	}
}

func TestSignupsPerNetwork(t *testing.T) {
	ts := newTestServer(t, nil, nil)
	for i := 0; i < signupsPerHour; i++ {
		signup(t, ts, fmt.Sprintf("m%d@example.com", i), "spaghetti-monster")
	}
	w := ts.do(t, "POST", "/api/auth/signup", `{"email":"one-more@example.com","password":"spaghetti-monster","displayName":"X"}`)
	if w.Code != 429 {
		t.Fatalf("sign-up %d from one address in an hour: %d", signupsPerHour+1, w.Code)
	}
}

// A plain IPv4 address is counted as itself, without a parse that
// allocates; every other spelling as net.ParseIP reads it.
func TestClientNetworkOfIPv4(t *testing.T) {
	reference := func(ip string) string {
		a := net.ParseIP(ip)
		if a == nil {
			return ip
		}
		if v4 := a.To4(); v4 != nil {
			return v4.String()
		}
		return a.String()
	}
	for _, ip := range []string{"192.0.2.1", "0.0.0.0", "255.255.255.255", "10.0.0.01", "1.2.3", "1.2.3.4.5", "256.1.1.1",
		" 1.2.3.4", "1.2.3.4 ", "1.2.3.4%eth0", "::ffff:1.2.3.4", "::ffff:0102:0304", "0:0:0:0:0:ffff:1.2.3.4", "::1.2.3.4", "", "x", "1.2.3.-4"} {
		if got, want := clientNetwork(ip, 128), reference(ip); got != want {
			t.Errorf("%q: %q, want %q", ip, got, want)
		}
	}
	if raceDetector {
		return
	}
	if n := testing.AllocsPerRun(100, func() { clientNetwork("192.0.2.1", 64) }); n != 0 {
		t.Errorf("%.0f allocations for an IPv4 address", n)
	}
}
