package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
)

const userUsage = `usage: layerfix user COMMAND [flags] ARGS
  list [--json]             every account with its plan and this month's usage
  reset-password EMAIL      print a one-hour password reset link (local accounts)
  set-tier EMAIL TIER       grant a plan (free, hobby, pro, farm) without billing
  create EMAIL NAME         a local account (email verified); prints a one-hour link to set its password
  disable EMAIL             refuse its sessions and sign-ins (the maker is told why)
  enable EMAIL              allow it again (sessions from before stay ended)
  delete EMAIL --yes        delete it with its printers, issues and photos`

// userCmd is the operator's account tool. It reads the same flags and
// LAYERFIX_* variables as the server, so it finds the same database.
func userCmd(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(userUsage)
	}
	sub := args[0]
	// --json is the list's own flag; every other flag is the server's.
	asJSON, yes := false, false
	var serverArgs []string
	for _, a := range args[1:] {
		if sub == "list" && (a == "--json" || a == "-json") {
			asJSON = true
			continue
		}
		if sub == "delete" && (a == "--yes" || a == "-yes") {
			yes = true
			continue
		}
		serverArgs = append(serverArgs, a)
	}
	cfg, rest, err := config.Parse(serverArgs, os.Getenv)
	if err != nil {
		return err
	}
	want := map[string]int{"list": 0, "reset-password": 1, "set-tier": 2, "create": 2, "disable": 1, "enable": 1, "delete": 1}
	n, ok := want[sub]
	if !ok || len(rest) != n {
		return errors.New(userUsage)
	}
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, store.Options{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: quiet})
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer st.Close() //nolint:errcheck // the command's writes are committed before it returns
	switch sub {
	case "list":
		users, err := st.ListUsers(ctx)
		if err != nil {
			return err
		}
		if asJSON {
			type row struct {
				ID            int64     `json:"id"`
				Email         string    `json:"email"`
				Name          string    `json:"name"`
				Tier          string    `json:"tier"`
				Status        string    `json:"status"`
				EffectiveTier string    `json:"effectiveTier"`
				Used          int       `json:"usedThisMonth"`
				Limit         int       `json:"monthlyLimit"`
				EmailVerified bool      `json:"emailVerified"`
				Disabled      bool      `json:"disabled"`
				CreatedAt     time.Time `json:"createdAt"`
			}
			rows := make([]row, len(users))
			for i := range users {
				u := &users[i]
				tier := accounts.EffectiveTier(u)
				rows[i] = row{u.ID, u.Email, u.DisplayName, u.SubscriptionTier, u.SubscriptionStatus, tier,
					store.EffectiveUsage(u, st.Now()), cfg.TierLimits.Limit(tier), u.EmailVerified, u.Disabled, u.CreatedAt.UTC()}
			}
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tTIER\tSTATUS\tUSED\tLIMIT")
		for i := range users {
			u := &users[i]
			tier := accounts.EffectiveTier(u)
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\n", u.ID, u.Email, u.DisplayName, u.SubscriptionTier, u.SubscriptionStatus,
				store.EffectiveUsage(u, st.Now()), cfg.TierLimits.Limit(tier))
		}
		return tw.Flush()
	case "create", "disable", "enable", "delete":
		ops, err := operator(ctx, cfg, st, quiet)
		if err != nil {
			return err
		}
		switch sub {
		case "create":
			link, err := ops.Create(ctx, rest[0], rest[1])
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Created %s. Send this link to set the password (valid for one hour, single use):\n%s\n", rest[0], link)
		case "disable", "enable":
			if err := ops.SetDisabled(ctx, rest[0], sub == "disable"); err != nil {
				return err
			}
			fmt.Fprintf(out, "%s is %sd\n", rest[0], sub)
		default:
			if !yes {
				return fmt.Errorf("deleting %s removes its printers, issues and photos for good: add --yes", rest[0])
			}
			n, err := ops.Delete(ctx, rest[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Deleted %s and %d photos\n", rest[0], n)
		}
		return nil
	case "reset-password":
		ops, err := operator(ctx, cfg, st, quiet)
		if err != nil {
			return err
		}
		link, err := ops.ResetLink(ctx, rest[0])
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no account with email %s", rest[0])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Password reset link for %s (valid for one hour, single use):\n%s\n", rest[0], link)
		return nil
	default: // set-tier
		email, tier := rest[0], rest[1]
		if _, ok := cfg.TierLimits[tier]; !ok {
			return fmt.Errorf("unknown tier %q (known: %s)", tier, cfg.TierLimits)
		}
		u, err := st.UserByEmail(ctx, email)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no account with email %s", email)
		}
		if err != nil {
			return err
		}
		status := "active"
		if tier == "free" {
			status = "inactive"
		}
		if err := st.UpdateUser(ctx, u.ID, map[string]any{"subscription_tier": tier, "subscription_status": status}); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s is now on %s (%d analyses a month)\n", email, tier, cfg.TierLimits.Limit(tier))
		return nil
	}
}

// operator is the account tools over the configured database and photo
// store (the object store when LAYERFIX_BLOB_URL names one, so deleting an
// account removes its photos there).
func operator(ctx context.Context, cfg *config.Config, st *store.Store, log *slog.Logger) (*accounts.Operator, error) {
	blobs, err := photos.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return accounts.NewOperator(cfg, st, blobs, log), nil
}
