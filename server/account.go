package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/mail"
	"github.com/layerfix/layerfix/store"
	"github.com/layerfix/layerfix/store/blob"
)

// The signed-in maker's own account (the /account screen): password and
// email changes, the data download and deleting the account. The display
// name is in profile.go; the operator's commands are in accounts.go.

const (
	// recentSignIn is how fresh a Firebase sign-in must be to delete the
	// account with it.
	recentSignIn = 5 * time.Minute
	// emailChangeTTL is how long an email-change link works.
	emailChangeTTL = 24 * time.Hour
)

// CodeWrongPassword is the error code of a wrong current password.
const CodeWrongPassword = "wrong-password"

// CodeRecentSignIn asks for a fresh sign-in before deleting an account.
const CodeRecentSignIn = "requires-recent-login"

// identityDeleter is what deleting an account needs from Firebase mode.
type identityDeleter interface {
	RecentSignIn(ctx context.Context, token string, maxAge time.Duration) (bool, error)
	DeleteIdentity(ctx context.Context, uid string) (bool, error)
	MarkDeleted(uid string)
}

type accountAPI struct {
	store     *store.Store
	local     *localAuth      // local mode; nil in Firebase mode
	identity  identityDeleter // Firebase mode; nil in local mode
	billing   *billingAPI
	blobs     blob.Store
	learn     *learner
	now       func() time.Time
	log       *slog.Logger
	downloads *downloadSlots
}

// confirmPassword checks the signed-in maker's current password under the
// sign-in limits, so a stolen session cannot be used to guess it: its
// failures count against the account's email as failed sign-ins do.
func (h *accountAPI) confirmPassword(c echo.Context, u *store.User, field, password string) error {
	if password == "" {
		return validationErr(map[string]string{field: "Enter your current password."})
	}
	if len(password) > 4*accounts.MaxPassword {
		return validationErr(map[string]string{field: "Password must be at most 1024 characters"})
	}
	got, err := h.local.checkPasswordLimited(c, u.Email, password)
	if errors.Is(err, errBadCredentials) || (err == nil && got.ID != u.ID) {
		return &APIError{Status: http.StatusBadRequest, Code: CodeWrongPassword, Message: "Incorrect password",
			Fields: map[string]string{field: "Incorrect password"}}
	}
	if err == nil && got.Disabled {
		return accountDisabledErr()
	}
	return err
}

type passwordChange struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// changePassword handles POST /api/user/password (local accounts): the
// current password, then a new one by the sign-up rules. Every other
// session of the account and every reset link end; this one stays.
func (h *accountAPI) changePassword(c echo.Context) error {
	var in passwordChange
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	u, ctx := currentUser(c), c.Request().Context()
	fields := map[string]string{}
	if in.CurrentPassword == "" {
		fields["currentPassword"] = "Enter your current password."
	}
	if msg := accounts.WeakPassword(in.NewPassword, u.Email); msg != "" {
		fields["newPassword"] = msg
	} else if in.NewPassword == in.CurrentPassword {
		fields["newPassword"] = "Choose a new password that differs from the current one."
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	if err := h.confirmPassword(c, u, "currentPassword", in.CurrentPassword); err != nil {
		return err
	}
	var ph string
	if err := accounts.WithHashSlot(ctx, func() { ph = accounts.HashPassword(in.NewPassword) }); err != nil {
		return hashBusyErr(err)
	}
	if err := h.store.UpdateUser(ctx, u.ID, map[string]any{"password_hash": ph}); err != nil {
		return err
	}
	if err := h.store.RevokeAuthTokens(ctx, u.ID, tokenReset, h.now()); err != nil {
		return err
	}
	if err := h.store.DeleteSessionsExcept(ctx, u.ID, accounts.HashToken(bearerToken(c))); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: "Your password was changed. Other devices were signed out."})
}

type emailChange struct {
	NewEmail        string `json:"newEmail"`
	CurrentPassword string `json:"currentPassword"`
}

// changeEmail handles POST /api/user/email (local accounts), with the
// current password. With email configured the new address gets a link and
// the change takes effect when it is opened (202); without email the change
// takes effect at once and the address is unverified, as a sign-up without
// email is (200).
func (h *accountAPI) changeEmail(c echo.Context) error {
	var in emailChange
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	u, ctx := currentUser(c), c.Request().Context()
	email := accounts.NormalizeEmail(in.NewEmail)
	fields := map[string]string{}
	switch {
	case email == "":
		fields["newEmail"] = "Invalid email address"
	case email == u.Email:
		fields["newEmail"] = "This is already your email address."
	}
	if in.CurrentPassword == "" {
		fields["currentPassword"] = "Enter your current password."
	}
	if len(fields) > 0 {
		return validationErr(fields)
	}
	if err := h.confirmPassword(c, u, "currentPassword", in.CurrentPassword); err != nil {
		return err
	}
	taken := apiErr(http.StatusConflict, "email-already-in-use", "An account with this email already exists")
	taken.Fields = map[string]string{"newEmail": taken.Message}
	if other, err := h.store.UserByEmail(ctx, email); err == nil && other.ID != u.ID {
		return taken
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if h.local.mailer == nil {
		if err := h.store.SetEmail(ctx, u.ID, email, false); errors.Is(err, store.ErrDuplicate) {
			return taken
		} else if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, emailChangeResponse{Email: email, Pending: false,
			Message: "Your email address is now " + email + ". This server sends no email, so it is not verified."})
	}
	err := h.local.mailLink(email, u.ID, store.TokenEmailChange, mail.EmailChange, "verify", func(ctx context.Context, hash string) error {
		return h.store.CreateEmailChangeToken(ctx, u.ID, email, hash, h.now().Add(emailChangeTTL))
	})
	if errors.Is(err, errMailLimit) {
		return apiErr(http.StatusTooManyRequests, CodeRateLimited, "Several emails were sent to this address in the last hour. Please try again later.")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, emailChangeResponse{Email: email, Pending: true,
		Message: "We sent a confirmation link to " + email + ". Your email address changes when you open it (within 24 hours)."})
}

// deleteAccount handles DELETE /api/user: local accounts confirm with the
// password, Firebase accounts with a sign-in at most recentSignIn old. A
// live subscription is canceled at the payment provider first (nothing
// more is charged; a failure there stops the deletion), then the Firebase
// identity, then the account's rows (printers, issues and their
// attachments, photo records, sessions, links) and its photo files.
func (h *accountAPI) deleteAccount(c echo.Context) error {
	u, ctx := currentUser(c), c.Request().Context()
	if h.local != nil {
		var in deleteAccountRequest
		if err := bindJSON(c, &in); err != nil {
			return err
		}
		if err := h.confirmPassword(c, u, "password", in.Password); err != nil {
			return err
		}
	} else {
		if h.identity == nil || u.FirebaseUID == nil {
			return apiErr(http.StatusServiceUnavailable, CodeAuthUnavailable, "Accounts cannot be deleted here on this server; please ask the operator.")
		}
		fresh, err := h.identity.RecentSignIn(ctx, bearerToken(c), recentSignIn)
		if err != nil {
			return err
		}
		if !fresh {
			return apiErr(http.StatusForbidden, CodeRecentSignIn, "For your safety, please sign in again, then delete your account within 5 minutes.")
		}
	}
	plan, err := h.billing.cancelForDeletion(ctx, u.ID)
	if err != nil {
		return err
	}
	identityDeleted := false
	if h.identity != nil {
		if identityDeleted, err = h.identity.DeleteIdentity(ctx, *u.FirebaseUID); err != nil {
			return err
		}
	}
	photos, err := accounts.DeleteUserData(ctx, h.store, h.blobs, h.log, u.ID)
	if err != nil {
		return err
	}
	if h.identity != nil {
		h.identity.MarkDeleted(*u.FirebaseUID)
	}
	h.learn.learned() // its confirmed fixes leave what the engine learned
	h.log.Info("account deleted by its owner", "user_id", u.ID, "photos", photos, "subscription_canceled", plan != "")
	msg := "Your account and everything in it were deleted."
	if plan != "" {
		msg += " Your " + tierLabel(plan) + " subscription was canceled first: nothing more will be charged."
	}
	return c.JSON(http.StatusOK, deleteAccountResponse{Deleted: true, SubscriptionCanceled: plan != "",
		IdentityDeleted: identityDeleted, Message: msg})
}
