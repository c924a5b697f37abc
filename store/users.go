package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// ErrDuplicate is returned when a unique key (such as an email) is taken.
var ErrDuplicate = errors.New("already exists")

// ErrDisabled is returned for a live session of an account the operator
// disabled: the session is refused, and its holder may be told why.
var ErrDisabled = errors.New("account disabled")

// CreateUser inserts u; a taken email or firebase uid gives ErrDuplicate.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	u.Email = strings.ToLower(strings.TrimSpace(u.Email))
	if u.CreatedAt.IsZero() {
		u.CreatedAt = s.Now()
	}
	if u.SubscriptionStatus == "" {
		u.SubscriptionStatus = "inactive"
	}
	if u.SubscriptionTier == "" {
		u.SubscriptionTier = "free"
	}
	err := s.writer(ctx).Create(u).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrDuplicate
	}
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	return nil
}

// UserByID returns the user or ErrNotFound.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	var u User
	if err := s.reader(ctx).Take(&u, id).Error; err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// UserByEmail returns the user with this (case-insensitive) email.
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	if err := s.reader(ctx).Where("email = ?", strings.ToLower(strings.TrimSpace(email))).Take(&u).Error; err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// UpsertFirebaseUser creates or updates the row of a Firebase identity,
// keyed by its uid. An existing row with the same email and no uid (an
// account created locally before switching modes) is adopted when the
// identity's email is verified; otherwise the taken email is ErrDuplicate.
func (s *Store) UpsertFirebaseUser(ctx context.Context, uid, email, name string, verified bool) (*User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	var out User
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("firebase_uid = ?", uid).Take(&out).Error
		// A local account is adopted only by a verified owner of its email:
		// anyone can create a Firebase identity with an unverified address.
		if errors.Is(err, gorm.ErrRecordNotFound) && email != "" && verified {
			err = tx.Where("email = ? AND firebase_uid IS NULL", email).Take(&out).Error
		}
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound):
			if email == "" {
				email = uid + "@users.invalid"
			}
			out = User{FirebaseUID: &uid, Email: email, DisplayName: name, EmailVerified: verified,
				SubscriptionStatus: "inactive", SubscriptionTier: "free", CreatedAt: s.Now()}
			return tx.Create(&out).Error
		case err != nil:
			return err
		}
		upd := map[string]any{"firebase_uid": uid, "email_verified": verified}
		if email != "" {
			upd["email"] = email
		}
		if name != "" {
			upd["display_name"] = name
		}
		if err := tx.Model(&out).Updates(upd).Error; err != nil {
			return err
		}
		return tx.Take(&out, out.ID).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return nil, ErrDuplicate
	}
	if err != nil {
		return nil, fmt.Errorf("upsert firebase user: %w", err)
	}
	return &out, nil
}

// UpdateUser sets the given columns of user id.
func (s *Store) UpdateUser(ctx context.Context, id int64, cols map[string]any) error {
	res := s.writer(ctx).Model(&User{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return fmt.Errorf("update user %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// ListUsers returns every user, oldest first.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	var out []User
	if err := s.reader(ctx).Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return out, nil
}

// CreateSession stores a session by its token hash.
func (s *Store) CreateSession(ctx context.Context, userID int64, tokenHash string, expires time.Time) error {
	err := s.writer(ctx).Create(&Session{UserID: userID, TokenHash: tokenHash, CreatedAt: s.Now(), ExpiresAt: expires.UTC()}).Error
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// SessionUser returns the user of a live session, ErrDisabled when the
// account is disabled, or ErrNotFound.
func (s *Store) SessionUser(ctx context.Context, tokenHash string, now time.Time) (*User, error) {
	var u User
	err := s.reader(ctx).Table("users").Select("users.*").
		Joins("JOIN sessions ON sessions.user_id = users.id").
		Where("sessions.token_hash = ? AND sessions.expires_at > ?", tokenHash, now.UTC()).
		Take(&u).Error
	if err != nil {
		return nil, notFound(err)
	}
	if u.Disabled {
		return nil, ErrDisabled
	}
	return &u, nil
}

// DeleteSession revokes one session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if err := s.writer(ctx).Where("token_hash = ?", tokenHash).Delete(&Session{}).Error; err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// DeleteSessions revokes every session of a user (after a password reset).
func (s *Store) DeleteSessions(ctx context.Context, userID int64) error {
	if err := s.writer(ctx).Where("user_id = ?", userID).Delete(&Session{}).Error; err != nil {
		return fmt.Errorf("delete sessions: %w", err)
	}
	return nil
}

// CreateAuthToken stores a one-time token of kind for a user.
func (s *Store) CreateAuthToken(ctx context.Context, userID int64, kind, tokenHash string, expires time.Time) error {
	err := s.writer(ctx).Create(&AuthToken{UserID: userID, Kind: kind, TokenHash: tokenHash, CreatedAt: s.Now(), ExpiresAt: expires.UTC()}).Error
	if err != nil {
		return fmt.Errorf("create %s token: %w", kind, err)
	}
	return nil
}

// PeekAuthToken returns the user of a live, unused token of kind without
// using it; an expired, used or unknown token gives ErrNotFound.
func (s *Store) PeekAuthToken(ctx context.Context, kind, tokenHash string, now time.Time) (int64, error) {
	var ids []int64
	err := s.reader(ctx).Model(&AuthToken{}).Where("kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ?",
		kind, tokenHash, now.UTC()).Limit(1).Pluck("user_id", &ids).Error
	if err != nil {
		return 0, fmt.Errorf("read %s token: %w", kind, err)
	}
	if len(ids) == 0 {
		return 0, ErrNotFound
	}
	return ids[0], nil
}

// RevokeAuthTokens marks every outstanding token of kind of the user used:
// after a password change no older reset link works.
func (s *Store) RevokeAuthTokens(ctx context.Context, userID int64, kind string, now time.Time) error {
	err := s.writer(ctx).Exec(`UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL`,
		now.UTC(), userID, kind).Error
	if err != nil {
		return fmt.Errorf("revoke %s tokens of user %d: %w", kind, userID, err)
	}
	return nil
}

// UseAuthToken marks a live, unused token of kind as used and returns its
// user id; a second use, an expired or unknown token gives ErrNotFound.
func (s *Store) UseAuthToken(ctx context.Context, kind, tokenHash string, now time.Time) (int64, error) {
	var ids []int64
	err := s.writer(ctx).Raw(`UPDATE auth_tokens SET used_at = ? WHERE kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id`,
		now.UTC(), kind, tokenHash, now.UTC()).Scan(&ids).Error
	if err != nil {
		return 0, fmt.Errorf("use %s token: %w", kind, err)
	}
	if len(ids) == 0 {
		return 0, ErrNotFound
	}
	return ids[0], nil
}

// TokenEmailChange is the kind of a one-time token that moves an account
// to the address it was sent to.
const TokenEmailChange = "email-change"

// DeleteSessionsExcept revokes every session of a user but the one whose
// token hash is keep (the device that changed the password stays signed in).
func (s *Store) DeleteSessionsExcept(ctx context.Context, userID int64, keep string) error {
	if err := s.writer(ctx).Where("user_id = ? AND token_hash <> ?", userID, keep).Delete(&Session{}).Error; err != nil {
		return fmt.Errorf("delete other sessions of user %d: %w", userID, err)
	}
	return nil
}

// CreateEmailChangeToken stores a one-time token that moves the user to
// newEmail when it is used; the user's earlier email-change links stop
// working.
func (s *Store) CreateEmailChangeToken(ctx context.Context, userID int64, newEmail, tokenHash string, expires time.Time) error {
	now := s.Now()
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL`,
			now, userID, TokenEmailChange).Error; err != nil {
			return err
		}
		return tx.Create(&AuthToken{UserID: userID, Kind: TokenEmailChange, TokenHash: tokenHash, CreatedAt: now,
			ExpiresAt: expires.UTC(), NewEmail: &newEmail}).Error
	})
	if err != nil {
		return fmt.Errorf("create email-change token of user %d: %w", userID, err)
	}
	return nil
}

// ConfirmEmailChange uses a live email-change token: the account's email
// becomes the address the token was sent to, verified, and every other
// one-time link of the account stops working (a reset link sent to the old
// address among them). An unknown, used or expired token is ErrNotFound; an
// address another account took meanwhile is ErrDuplicate, and the token
// stays unused.
func (s *Store) ConfirmEmailChange(ctx context.Context, tokenHash string, now time.Time) (userID int64, email string, err error) {
	now = now.UTC()
	err = s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []struct {
			UserID   int64
			NewEmail *string
		}
		if err := tx.Raw(`UPDATE auth_tokens SET used_at = ? WHERE kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, new_email`,
			now, TokenEmailChange, tokenHash, now).Scan(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 0 || rows[0].NewEmail == nil {
			return ErrNotFound
		}
		userID, email = rows[0].UserID, *rows[0].NewEmail
		return setEmail(tx, userID, email, true, now)
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return 0, "", ErrDuplicate
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("confirm email change: %w", err)
	}
	return userID, email, err
}

// SetEmail gives the user a new email at once, verified or not, and ends
// every outstanding one-time link of the account. A taken address is
// ErrDuplicate.
func (s *Store) SetEmail(ctx context.Context, userID int64, email string, verified bool) error {
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error { return setEmail(tx, userID, email, verified, s.Now()) })
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrDuplicate
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("set email of user %d: %w", userID, err)
	}
	return err
}

func setEmail(tx *gorm.DB, userID int64, email string, verified bool, now time.Time) error {
	email = strings.ToLower(strings.TrimSpace(email))
	res := tx.Exec(`UPDATE users SET email = ?, email_verified = ? WHERE id = ?`, email, verified, userID)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return tx.Exec(`UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL`, now.UTC(), userID).Error
}

// monthStart is the first instant of now's calendar month in UTC.
func monthStart(now time.Time) time.Time {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// EffectiveUsage is the user's count for now's month: a count from an
// earlier month reads as 0 (it is reset lazily at the next use).
func EffectiveUsage(u *User, now time.Time) int {
	if u.LastUsageReset == nil || u.LastUsageReset.Before(monthStart(now)) {
		return 0
	}
	return u.MonthlyUsage
}

// ConsumeUserCredit counts one analysis for the user unless the month's
// count has reached limit. The monthly reset happens inside the same
// conditional UPDATE, so concurrent submissions never exceed the limit.
func (s *Store) ConsumeUserCredit(ctx context.Context, userID int64, now time.Time, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	ms, now := monthStart(now), now.UTC()
	var ok bool
	err := s.write(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(`UPDATE users SET
  monthly_usage = CASE WHEN last_usage_reset IS NULL OR last_usage_reset < ? THEN 1 ELSE monthly_usage + 1 END,
  last_usage_reset = CASE WHEN last_usage_reset IS NULL OR last_usage_reset < ? THEN ? ELSE last_usage_reset END
WHERE id = ? AND (last_usage_reset IS NULL OR last_usage_reset < ? OR monthly_usage < ?)`,
			ms, ms, now, userID, ms, limit)
		ok = res.RowsAffected == 1
		return res.Error
	})
	if err != nil {
		return false, fmt.Errorf("consume credit of user %d: %w", userID, err)
	}
	return ok, nil
}

// RefundUserCredit gives back a credit taken this month for a failed analysis.
func (s *Store) RefundUserCredit(ctx context.Context, userID int64, now time.Time) error {
	err := s.write(ctx, func(tx *gorm.DB) error {
		return tx.Exec(`UPDATE users SET monthly_usage = monthly_usage - 1
WHERE id = ? AND monthly_usage > 0 AND last_usage_reset >= ?`, userID, monthStart(now)).Error
	})
	if err != nil {
		return fmt.Errorf("refund credit of user %d: %w", userID, err)
	}
	return nil
}

// TransferAnonymous moves ip's anonymous analyses of now's month into the
// account of userID, only when that account was created within window
// (by this sign-up) and never received a transfer, and at most once per IP
// and month: the anonymous record is marked transferred in the same
// transaction. It returns the number of analyses added.
func (s *Store) TransferAnonymous(ctx context.Context, userID int64, ip string, now time.Time, window time.Duration) (int, error) {
	ms, now := monthStart(now), now.UTC()
	period := now.Format("2006-01")
	n := 0
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		var u User
		if err := tx.Select("id, created_at, usage_transfer_period").Take(&u, userID).Error; err != nil {
			return err
		}
		if u.UsageTransferPeriod != nil || u.CreatedAt.Before(now.Add(-window)) {
			return nil // an existing account is never charged for strangers' use
		}
		// Whatever the IP's record says, this account's one chance is spent.
		if err := tx.Exec(`UPDATE users SET usage_transfer_period = ? WHERE id = ?`, period, userID).Error; err != nil {
			return err
		}
		// Only analyses made before the account existed are its maker's: a
		// use after that came from someone else on the network (its maker was
		// signed in by then), so a record used since is not transferred.
		res := tx.Exec(`UPDATE anonymous_usage SET transferred = TRUE
WHERE ip_address = ? AND month = ? AND year = ? AND transferred = FALSE AND usage_count > 0 AND last_used <= ?`,
			ip, int(now.Month()), now.Year(), u.CreatedAt.UTC())
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		if err := tx.Raw(`SELECT usage_count FROM anonymous_usage WHERE ip_address = ? AND month = ? AND year = ?`,
			ip, int(now.Month()), now.Year()).Scan(&n).Error; err != nil {
			return err
		}
		return tx.Exec(`UPDATE users SET
  monthly_usage = CASE WHEN last_usage_reset IS NULL OR last_usage_reset < ? THEN ? ELSE monthly_usage + ? END,
  last_usage_reset = CASE WHEN last_usage_reset IS NULL OR last_usage_reset < ? THEN ? ELSE last_usage_reset END
WHERE id = ?`, ms, n, n, ms, now, userID).Error
	})
	if err != nil {
		return 0, fmt.Errorf("transfer anonymous usage to user %d: %w", userID, err)
	}
	return n, nil
}

// DeleteUser deletes an account and, through the schema's cascades, its
// printers, issues, photo rows, sessions and one-time tokens. It returns the
// ids of the photos whose files the caller removes.
func (s *Store) DeleteUser(ctx context.Context, id int64) (photoIDs []string, err error) {
	err = s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Photo{}).Where("user_id = ?", id).Pluck("id", &photoIDs).Error; err != nil {
			return err
		}
		res := tx.Exec("DELETE FROM users WHERE id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return nil
	})
	return photoIDs, err
}
