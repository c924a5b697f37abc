// Package mailtest is a fake SMTP server for tests.
package mailtest

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

// FakeSMTP accepts one message over plain SMTP and returns the transcript
// of client commands and the message data.
func FakeSMTP(t testing.TB) (addr string, got chan []string) {
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
