package server

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// fakeSMTP accepts one message over plain SMTP and returns the transcript
// of client commands and the message data.
func fakeSMTP(t *testing.T) (addr string, got chan []string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	got = make(chan []string, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		r := bufio.NewReader(conn)
		say := func(s string) { conn.Write([]byte(s + "\r\n")) }
		var lines []string
		say("220 fake ESMTP")
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				got <- lines
				return
			}
			line = strings.TrimRight(line, "\r\n")
			lines = append(lines, line)
			switch cmd := strings.ToUpper(strings.Fields(line + " x")[0]); cmd {
			case "EHLO", "HELO":
				say("250-fake\r\n250 AUTH PLAIN")
			case "AUTH":
				say("235 ok")
			case "MAIL", "RCPT":
				say("250 ok")
			case "DATA":
				say("354 go on")
				for {
					d, err := r.ReadString('\n')
					if err != nil || d == ".\r\n" {
						break
					}
					lines = append(lines, strings.TrimRight(d, "\r\n"))
				}
				say("250 queued")
			case "QUIT":
				say("221 bye")
				got <- lines
				return
			default:
				say("250 ok")
			}
		}
	}()
	return l.Addr().String(), got
}

func TestSMTPMailerSends(t *testing.T) {
	addr, got := fakeSMTP(t)
	// PLAIN auth over an unencrypted connection is allowed only to localhost.
	m, err := newSMTPMailer("smtp://user:secret@localhost:"+strings.Split(addr, ":")[1]+"?starttls=off", "Layerfix <no-reply@example.com>")
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
	m, _ := newSMTPMailer("smtp://"+addr, "no-reply@example.com")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := m.Send(ctx, "maker@example.com", "s", "b"); err == nil || !strings.Contains(err.Error(), "connect to mail server") {
		t.Fatalf("err = %v", err)
	}
}

// With LAYERFIX_SMTP_URL set, sign-up really sends the verification email.
func TestSMTPConfiguredServerSendsVerification(t *testing.T) {
	addr, got := fakeSMTP(t)
	ts := newTestServer(t, map[string]string{
		"LAYERFIX_SMTP_URL": "smtp://" + addr + "?starttls=off", "LAYERFIX_MAIL_FROM": "Layerfix <no-reply@example.com>",
		"LAYERFIX_PUBLIC_URL": "https://fix.example.com",
	}, nil)
	signup(t, ts, "maker@example.com", "spaghetti-monster")
	select {
	case lines := <-got:
		msg := strings.Join(lines, "\n")
		if !strings.Contains(msg, "RCPT TO:<maker@example.com>") || !strings.Contains(msg, "https://fix.example.com/login?mode=verify&oobCode=") {
			t.Fatalf("verification email:\n%s", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no email was sent")
	}
	if body := ts.do(t, "GET", "/", "").Body.String(); !strings.Contains(body, `"emailEnabled":true`) {
		t.Fatal("the app is not told that email is on")
	}
}

// Without STARTTLS on offer, nothing is sent unless the operator opted out.
func TestSMTPRequiresTLS(t *testing.T) {
	addr, got := fakeSMTP(t)
	m, err := newSMTPMailer("smtp://user:secret@"+addr, "no-reply@example.com")
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
		if _, err := newSMTPMailer(bad, "no-reply@example.com"); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
