package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/layerfix/layerfix/store"
)

// Operator account tools (layerfix user create|disable|enable|delete).

// CreateAccount makes a local account the operator vouches for (its email
// counts as verified) with no password, and returns a one-hour link where
// its owner sets one: no password passes through the command line.
func (s *Server) CreateAccount(ctx context.Context, email, name string) (string, error) {
	if s.cfg.AuthMode != "local" {
		return "", errors.New("accounts are created in Firebase in Firebase mode")
	}
	addr := normalizeEmail(email)
	if addr == "" {
		return "", fmt.Errorf("%q is not an email address", email)
	}
	name, problem := checkDisplayName(name)
	if problem != "" {
		return "", errors.New(problem)
	}
	u := &store.User{Email: addr, DisplayName: name, EmailVerified: true, CreatedAt: s.now()}
	if err := s.store.CreateUser(ctx, u); errors.Is(err, store.ErrDuplicate) {
		return "", fmt.Errorf("an account with email %s already exists", addr)
	} else if err != nil {
		return "", err
	}
	return s.local.ResetLink(ctx, addr)
}

// SetDisabled disables an account (its sessions end at once and it cannot
// sign in) or enables it again.
func (s *Server) SetDisabled(ctx context.Context, email string, disabled bool) error {
	u, err := s.accountByEmail(ctx, email)
	if err != nil {
		return err
	}
	if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"disabled": disabled}); err != nil {
		return err
	}
	if disabled {
		return s.store.DeleteSessions(ctx, u.ID)
	}
	return nil
}

// DeleteAccount deletes an account with its printers, issues, sessions and
// photos (rows and files). It returns how many photos were removed.
func (s *Server) DeleteAccount(ctx context.Context, email string) (int, error) {
	u, err := s.accountByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return deleteUserData(ctx, s.store, s.photos.blobs, s.log, u.ID)
}

func (s *Server) accountByEmail(ctx context.Context, email string) (*store.User, error) {
	u, err := s.store.UserByEmail(ctx, normalizeEmail(email))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no account with email %s", email)
	}
	return u, err
}
