// Package printerlink asks a printer's host (Moonraker, OctoPrint or
// PrusaLink) for what it knows about the last print: the job, the settings
// of its file, the printer's config, the end of its log and recent
// temperatures. It is a server making requests for its users, so every
// request goes only to the networks the operator allows, checked on the
// address actually dialled (after DNS) and on every redirect, with short
// timeouts and bounded answers.
package printerlink

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// DefaultNets are the networks a printer's host may be on when the operator
// lists none: the private IPv4 ranges and IPv6 unique local addresses.
var DefaultNets = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("fc00::/7"),
}

// neverNets are refused whatever the operator lists: link-local ranges,
// where the cloud metadata services answer (169.254.169.254, fd00:ec2::254
// and the like), and addresses that are no single host.
var neverNets = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
	netip.MustParsePrefix("100.100.100.200/32"), // Alibaba Cloud metadata
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("ff00::/8"),
	netip.MustParsePrefix("255.255.255.255/32"),
}

// ParseNets reads a comma-separated list of CIDRs or single addresses
// ("192.168.1.0/24, 127.0.0.1"). Empty means DefaultNets.
func ParseNets(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !strings.Contains(p, "/") {
			a, err := netip.ParseAddr(p)
			if err != nil {
				return nil, fmt.Errorf("%q is not a CIDR such as 192.168.1.0/24 or an address", p)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		n, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR such as 192.168.1.0/24", p)
		}
		out = append(out, n.Masked())
	}
	if len(out) == 0 {
		return append([]netip.Prefix(nil), DefaultNets...), nil
	}
	return out, nil
}

// ErrNotAllowed is an address outside the allowed networks, or one that is
// never allowed.
var ErrNotAllowed = errors.New("address not allowed")

// Policy says which addresses a host may have.
type Policy struct {
	Nets []netip.Prefix
}

// Check returns nil when a request may go to ip.
func (p Policy) Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	for _, n := range neverNets {
		if n.Contains(ip) {
			return fmt.Errorf("%w: %s is a link-local, metadata or non-host address", ErrNotAllowed, ip)
		}
	}
	for _, n := range p.Nets {
		if n.Contains(ip) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s is outside the networks this server may reach", ErrNotAllowed, ip)
}

// Limits of one pull.
const (
	dialTimeout    = 3 * time.Second
	requestTimeout = 6 * time.Second
	maxRedirects   = 3
)

// client is an HTTP client that dials only addresses p allows. It never
// uses a proxy from the environment (the proxy's address is not the
// host's), and drops the API key on a redirect to another origin.
func (p Policy) client() *http.Client {
	d := &net.Dialer{
		Timeout: dialTimeout,
		// Control runs on the resolved address just before connecting, so a
		// name that resolves to a forbidden address is refused too.
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrNotAllowed, address)
			}
			return p.Check(ap.Addr())
		},
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		TLSHandshakeTimeout:    dialTimeout,
		ResponseHeaderTimeout:  requestTimeout,
		MaxIdleConns:           4,
		IdleConnTimeout:        10 * time.Second,
		DisableCompression:     false,
		MaxResponseHeaderBytes: 32 << 10,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   requestTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return errors.New("too many redirects")
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("%w: redirect to %s", ErrNotAllowed, req.URL.Scheme)
			}
			if ip, err := netip.ParseAddr(strings.Trim(req.URL.Hostname(), "[]")); err == nil {
				if err := p.Check(ip); err != nil {
					return err
				}
			}
			if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
				req.Header.Del(apiKeyHeader)
			}
			return nil
		},
	}
}
