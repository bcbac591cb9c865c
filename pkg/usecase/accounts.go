package usecase

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/store"
)

func requireAdmin(actor Actor) error {
	if !actor.Admin {
		return store.Refuse(store.KindForbidden, "administrator rights required")
	}
	return nil
}

// DeleteAccount deletes the account email and ends its sessions; with
// deleteFiles the files it uploaded go too, else they pass to the
// administrators (files.Service.GiveToAdmins). Admins and the owner only.
// It returns how many files were deleted or passed on.
func (h *Hub) DeleteAccount(ctx context.Context, actor Actor, email string, deleteFiles bool) (int, error) {
	if err := requireAdmin(actor); err != nil {
		return 0, err
	}
	u, err := h.Auth.UserByEmail(auth.NormalizeEmail(email))
	if err != nil {
		return 0, err
	}
	return h.deleteAccount(ctx, actor, u, deleteFiles)
}

// deleteAccount deletes u for actor (an admin, the owner, or u itself).
// Once begun it runs to its end whatever happens to the request that
// asked: an account half deleted, or deleted with its files half gone,
// could not be named again to finish.
func (h *Hub) deleteAccount(ctx context.Context, actor Actor, u *auth.User, deleteFiles bool) (int, error) {
	ctx = context.WithoutCancel(ctx)
	if err := h.Auth.DeleteUser(ctx, u.Email); err != nil {
		return 0, err
	}
	if err := h.Notify.DeleteUser(u.ID); err != nil {
		h.log().Warn("account deleted, but not its notifications", slog.String("user", u.Email), slog.Any("err", err))
	}
	// What the account wrote stays readable with its author shown as a
	// deleted account; what still waited for approval goes (ForgetAuthor).
	if h.Discuss != nil {
		if err := h.Discuss.ForgetAuthor(ctx, u.ID); err != nil {
			h.log().Error("account deleted, but its comments and posts not anonymised", slog.String("user", u.Email), slog.Any("err", err))
		}
	}
	if h.Social != nil {
		if err := h.Social.DeleteUser(ctx, u.ID); err != nil {
			h.log().Error("account deleted, but not its friendships and messages", slog.String("user", u.Email), slog.Any("err", err))
		}
	}
	mode, n := "keep", 0
	if h.Files != nil {
		var err error
		if deleteFiles {
			mode = "delete"
			n, err = h.Files.DeleteUploadedBy(ctx, u.ID)
		} else {
			n, err = h.Files.GiveToAdmins(ctx, u.ID)
		}
		if err != nil {
			h.log().Error("account deleted, but not all its files handled", slog.String("user", u.Email),
				slog.String("files", mode), slog.Any("err", err))
			return n, err
		}
	}
	by := "admin"
	if actor.UserID == u.ID {
		by = "self"
	}
	h.log().Info("user deleted", slog.String("user", u.Email), slog.String("files", mode),
		slog.Int("files_handled", n), slog.String("by", actor.Name()))
	details := map[string]string{"files": mode, "by": by}
	if deleteFiles {
		details["filesDeleted"] = strconv.Itoa(n)
	} else {
		details["filesKept"] = strconv.Itoa(n)
	}
	h.record(ctx, actor, audit.Event{Type: audit.UserDeleted, Target: u.Email, Details: details})
	return n, nil
}

// SetRole makes the account email an admin or a user, ending its sessions
// (auth.Service.SetRole). Admins and the owner only.
func (h *Hub) SetRole(ctx context.Context, actor Actor, email, role string) (*auth.User, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	before, err := h.Auth.UserByEmail(auth.NormalizeEmail(email))
	if err != nil {
		return nil, err
	}
	u, err := h.Auth.SetRole(ctx, before.Email, role)
	if err != nil {
		return nil, err
	}
	h.log().Info("role changed", slog.String("user", u.Email), slog.String("role", u.Role), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: audit.RoleChanged, Target: u.Email,
		Details: map[string]string{"from": before.Role, "to": u.Role}})
	return u, nil
}

// RevokeSessions ends every session of the account email. Admins and the
// owner only. It returns how many ended.
func (h *Hub) RevokeSessions(ctx context.Context, actor Actor, email string) (int, error) {
	if err := requireAdmin(actor); err != nil {
		return 0, err
	}
	email = auth.NormalizeEmail(email)
	n, err := h.Auth.RevokeSessions(ctx, email)
	if err != nil {
		return 0, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.SessionsRevoked, Target: email,
		Details: map[string]string{"sessions": "all", "count": strconv.Itoa(n)}})
	return n, nil
}

// ResetTwoFactor turns two-factor sign-in off for the account email (it
// lost its authenticator). Admins and the owner only.
func (h *Hub) ResetTwoFactor(ctx context.Context, actor Actor, email string) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	email = auth.NormalizeEmail(email)
	if err := h.Auth.ResetTOTP(ctx, email); err != nil {
		return err
	}
	h.record(ctx, actor, audit.Event{Type: audit.TwoFactorReset, Target: email})
	return nil
}
