package server

import (
	"fmt"
	"strings"
	"time"

	"github.com/layerfix/layerfix/config"
)

// networkKey names a network's shared free allowance in anonymous_usage: a
// hash, so it fits the column and stores no address.
func networkKey(network string) string { return "n:" + limiterKey("net", network) }

// networkLimitMessage: the network's free analyses of the month are used.
func networkLimitMessage(now time.Time) string {
	return fmt.Sprintf("This network has used its free analyses for %s (shared by visitors and unverified accounts). They reset on %s (UTC). Verify your account's email, or pick a plan to keep troubleshooting now.",
		now.UTC().Format("January 2006"), nextMonth(now).Format("January 2, 2006"))
}

// limitMessage says when the anonymous allowance resets: the first day of
// the next calendar month, UTC.
func limitMessage(limit int, now time.Time) string {
	now = now.UTC()
	next := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	// A new free account is charged the analyses used here (docs/decisions.md, "Anonymous
	// usage transfer"), so the message does not promise it more this month.
	return fmt.Sprintf("You've used all %d free analyses for %s. Your free credits reset on %s (UTC). "+
		"A free account keeps a log of your printers and issues, and the analyses used here count toward its month; "+
		"a paid plan gives you more right away.",
		limit, now.Format("January 2006"), next.Format("January 2, 2006"))
}

// codeUsageLimit is the 429 of a used-up monthly allowance.
const codeUsageLimit = "USAGE_LIMIT_EXCEEDED"

// usageLimitMessage says the allowance is used up and when it resets. The
// largest plan has nothing to upgrade to: it says whom to ask for more
// (the operator, by name and contact when they are set).
func usageLimitMessage(tier string, limit int, now time.Time, operator, contact string) string {
	name := tier
	for _, t := range config.Tiers {
		if t.ID == tier {
			name = t.Name
		}
	}
	msg := fmt.Sprintf("You've used all %d AI troubleshooting sessions of your %s plan for %s. Your credits reset on %s (UTC).",
		limit, name, now.UTC().Format("January 2006"), nextMonth(now).Format("January 2, 2006"))
	if tier != config.Tiers[len(config.Tiers)-1].ID {
		return msg + " Upgrade your plan for more sessions."
	}
	ask := "the operator of this server"
	if operator != "" {
		ask = operator + ", who runs this server,"
	}
	msg += fmt.Sprintf(" %s is the largest plan: for more sessions before then, ask %s", name, ask)
	if contact != "" {
		msg += " at " + contact
	}
	return strings.TrimSuffix(msg, ",") + "."
}

// nextMonth is when a monthly allowance resets: the first day of the next
// calendar month, UTC.
func nextMonth(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}
