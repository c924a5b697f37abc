package accounts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
)

// DeleteUserData deletes an account's rows (the schema's cascades take its
// printers, issues, attachments, photo records, sessions and one-time
// tokens) and then its photo files, and returns how many photos it had. A
// photo file that cannot be removed is logged: its row is gone already.
func DeleteUserData(ctx context.Context, st *store.Store, blobs blob.Store, log *slog.Logger, userID int64) (int, error) {
	ids, err := st.DeleteUser(ctx, userID)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := blobs.Delete(ctx, id+store.PhotoFileSuffix); err != nil && !errors.Is(err, blob.ErrNotFound) {
			log.Warn("delete account: photo file", "photo", id, "err", err)
		}
	}
	return len(ids), nil
}

// Operator is the operator's account tools (layerfix user
// create|disable|enable|delete|reset-password): they work on the database
// and the photo store directly, with no web server.
type Operator struct {
	Store    *store.Store
	Photos   blob.Store
	LinkBase string // scheme://host[/base] of the links it prints
	Firebase bool   // accounts live in Firebase: none are created here
	Now      func() time.Time
	Log      *slog.Logger
}

// NewOperator is the account tools of the server cfg describes.
func NewOperator(cfg *config.Config, st *store.Store, photos blob.Store, log *slog.Logger) *Operator {
	return &Operator{Store: st, Photos: photos, LinkBase: cfg.PublicURL + cfg.BasePath, Firebase: cfg.AuthMode != "local",
		Now: func() time.Time { return time.Now().UTC() }, Log: log}
}

// Create makes a local account the operator vouches for (its email
// counts as verified) with no password, and returns a one-hour link where
// its owner sets one: no password passes through the command line.
func (o *Operator) Create(ctx context.Context, email, name string) (string, error) {
	if o.Firebase {
		return "", errors.New("accounts are created in Firebase in Firebase mode")
	}
	addr := NormalizeEmail(email)
	if addr == "" {
		return "", fmt.Errorf("%q is not an email address", email)
	}
	name, problem := CheckDisplayName(name)
	if problem != "" {
		return "", errors.New(problem)
	}
	u := &store.User{Email: addr, DisplayName: name, EmailVerified: true, CreatedAt: o.Now()}
	if err := o.Store.CreateUser(ctx, u); errors.Is(err, store.ErrDuplicate) {
		return "", fmt.Errorf("an account with email %s already exists", addr)
	} else if err != nil {
		return "", err
	}
	return o.ResetLink(ctx, addr)
}

// ResetLink creates a one-hour password reset link for email.
func (o *Operator) ResetLink(ctx context.Context, email string) (string, error) {
	return ResetLink(ctx, o.Store, o.LinkBase, o.Now(), email)
}

// ResetLink creates a one-hour password reset link for email under
// linkBase (scheme://host[/base]).
func ResetLink(ctx context.Context, st *store.Store, linkBase string, now time.Time, email string) (string, error) {
	u, err := st.UserByEmail(ctx, email)
	if err != nil {
		return "", err
	}
	tok, hash := NewToken()
	if err := st.CreateAuthToken(ctx, u.ID, TokenReset, hash, now.Add(ResetTTL)); err != nil {
		return "", err
	}
	return linkBase + "/login?mode=reset&oobCode=" + tok, nil
}

// SetDisabled disables an account or enables it again. A disabled account
// cannot sign in, and its sessions are refused at once; they are kept so
// their holder is told the account is disabled rather than that the
// session expired. Enabling ends them, so a session from before the
// account was disabled never works again: the maker signs in afresh.
func (o *Operator) SetDisabled(ctx context.Context, email string, disabled bool) error {
	u, err := o.byEmail(ctx, email)
	if err != nil {
		return err
	}
	if err := o.Store.UpdateUser(ctx, u.ID, map[string]any{"disabled": disabled}); err != nil {
		return err
	}
	if !disabled {
		return o.Store.DeleteSessions(ctx, u.ID)
	}
	return nil
}

// Delete deletes an account with its printers, issues, sessions and
// photos (rows and files). It returns how many photos were removed.
func (o *Operator) Delete(ctx context.Context, email string) (int, error) {
	u, err := o.byEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return DeleteUserData(ctx, o.Store, o.Photos, o.Log, u.ID)
}

func (o *Operator) byEmail(ctx context.Context, email string) (*store.User, error) {
	u, err := o.Store.UserByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no account with email %s", email)
	}
	return u, err
}
