// Package mail sends the server's account emails over SMTP and builds
// their messages.
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	netmail "net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Mailer sends one plain-text email.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// SMTP speaks SMTP: smtp://user:pass@host:587 (STARTTLS, required)
// or smtps://user:pass@host:465 (implicit TLS). Only an operator who adds
// ?starttls=off sends without TLS (a relay on the same host or network).
type SMTP struct {
	u        *url.URL
	from     string // the From header, e.g. "Layerfix <no-reply@example.com>"
	envelope string // the bare address for MAIL FROM
	insecure bool   // ?starttls=off: plain SMTP allowed
}

// NewSMTP checks an SMTP URL and a From address and returns the mailer that
// sends with them.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("not an smtp:// or smtps:// URL")
	}
	a, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("sender %q is not an email address", from)
	}
	m := &SMTP{u: u, from: a.String(), envelope: a.Address}
	switch v := strings.ToLower(u.Query().Get("starttls")); v {
	case "", "on", "required":
	case "off":
		if u.Scheme == "smtps" {
			return nil, fmt.Errorf("starttls=off makes no sense with smtps://, which is always TLS")
		}
		m.insecure = true
	default:
		return nil, fmt.Errorf("starttls=%q: use on (the default) or off", v)
	}
	return m, nil
}

// Send delivers one message; it gives up at ctx's deadline, or after 20
// seconds without one.
func (m *SMTP) Send(ctx context.Context, to, subject, body string) error {
	host := m.u.Hostname()
	port := m.u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[m.u.Scheme]
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(20 * time.Second)
	}
	d := net.Dialer{Deadline: deadline}
	var conn net.Conn
	var err error
	if m.u.Scheme == "smtps" {
		conn, err = tls.DialWithDialer(&d, "tcp", net.JoinHostPort(host, port), &tls.Config{ServerName: host})
	} else {
		conn, err = d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	}
	if err != nil {
		return fmt.Errorf("connect to mail server: %w", err)
	}
	_ = conn.SetDeadline(deadline) // fails only on a closed connection, which the greeting reports
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("mail server greeting: %w", err)
	}
	defer c.Close() //nolint:errcheck // after Quit, or on a failure already returned
	if m.u.Scheme == "smtp" {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
				return fmt.Errorf("starttls: %w", err)
			}
		} else if !m.insecure {
			return fmt.Errorf("the mail server %s does not offer STARTTLS: use smtps://, or add ?starttls=off to LAYERFIX_SMTP_URL to send without TLS", host)
		}
	}
	if m.u.User != nil {
		pw, _ := m.u.User.Password()
		if err := c.Auth(smtp.PlainAuth("", m.u.User.Username(), pw, host)); err != nil {
			return fmt.Errorf("mail server login: %w", err)
		}
	}
	if err := c.Mail(m.envelope); err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("rcpt to: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	msg := "From: " + m.from + "\r\nTo: " + to + "\r\nSubject: " + subject +
		"\r\nDate: " + time.Now().UTC().Format(time.RFC1123Z) +
		"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n")
	if _, err := w.Write([]byte(msg)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}
