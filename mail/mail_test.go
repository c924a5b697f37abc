package mail

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/layerfix/layerfix/mail/mailtest"
)

func TestSMTPMailerSends(t *testing.T) {
	addr, got := mailtest.FakeSMTP(t)
	// PLAIN auth over an unencrypted connection is allowed only to localhost.
	m, err := NewSMTP("smtp://user:secret@localhost:"+strings.Split(addr, ":")[1]+"?starttls=off", "Layerfix <no-reply@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.Send(ctx, "maker@example.com", "Reset your Layerfix password", "Open this link:\nhttps://x/login?mode=reset&oobCode=abc\n"); err != nil {
		t.Fatalf("send: %v", err)
	}
	transcript := strings.Join(<-got, "\n")
	for _, want := range []string{"AUTH PLAIN", "MAIL FROM:<no-reply@example.com>", "RCPT TO:<maker@example.com>",
		"Subject: Reset your Layerfix password", `From: "Layerfix" <no-reply@example.com>`, "https://x/login?mode=reset&oobCode=abc"} {
		if !strings.Contains(transcript, want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
}

func TestSMTPMailerReportsAnUnreachableServer(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	m, _ := NewSMTP("smtp://"+addr, "no-reply@example.com")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := m.Send(ctx, "maker@example.com", "s", "b"); err == nil || !strings.Contains(err.Error(), "connect to mail server") {
		t.Fatalf("err = %v", err)
	}
}

// Without STARTTLS on offer, nothing is sent unless the operator opted out.
func TestSMTPRequiresTLS(t *testing.T) {
	addr, got := mailtest.FakeSMTP(t)
	m, err := NewSMTP("smtp://user:secret@"+addr, "no-reply@example.com")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = m.Send(ctx, "maker@example.com", "s", "b")
	if err == nil || !strings.Contains(err.Error(), "does not offer STARTTLS") {
		t.Fatalf("send without TLS: %v", err)
	}
	select {
	case lines := <-got:
		if strings.Contains(strings.Join(lines, "\n"), "AUTH") {
			t.Fatal("the password was sent over plain SMTP")
		}
	case <-time.After(3 * time.Second):
	}
	for _, bad := range []string{"smtp://h?starttls=maybe", "smtps://h?starttls=off"} {
		if _, err := NewSMTP(bad, "no-reply@example.com"); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
