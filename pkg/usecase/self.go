package usecase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/thumbs"
)

// An account's own settings, changed by its holder: the display name, the
// e-mail, the avatar, a copy of its data, and deleting it.

// AvatarSide is an avatar's side in pixels: twice the largest size a page
// shows it at, sharp on high-density screens.
const AvatarSide = 256

// MaxAvatarBytes is the largest picture accepted as an avatar.
const MaxAvatarBytes = 5 << 20

// avatarLimits bound the decoding of an avatar's picture: far below a
// thumbnail's, since a face needs no 50-megapixel source.
var avatarLimits = thumbs.Limits{MaxSide: AvatarSide, MaxPixels: 25_000_000, MaxMemory: 128 << 20}

// self is the signed-in account the actor is; the owner at the terminal
// has none.
func self(actor Actor) error {
	if actor.UserID == 0 {
		return store.Refuse(store.KindForbidden, "only a signed-in account has its own settings")
	}
	return nil
}

// SetOwnName changes the actor's display name.
func (h *Hub) SetOwnName(ctx context.Context, actor Actor, name string) (*auth.User, error) {
	if err := self(actor); err != nil {
		return nil, err
	}
	before, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return nil, err
	}
	u, err := h.Auth.SetName(ctx, actor.UserID, name)
	if err != nil {
		return nil, err
	}
	if u.Name != before.Name {
		h.record(ctx, actor, audit.Event{Type: audit.NameChanged, Target: u.Email,
			Details: map[string]string{"from": before.Name, "to": u.Name}})
	}
	return u, nil
}

// EmailChange is the answer to a change of e-mail: the account as it is
// now, and whether the change waits for a confirmation from the new
// address (the account keeps its old e-mail meanwhile).
type EmailChange struct {
	User    *auth.User `json:"user"`
	Pending bool       `json:"pending"`
}

// ChangeOwnEmail moves the actor's account to the address email, proven by
// the current password (and the second factor when it is on). Without
// Hub.ConfirmNewEmail the change is made at once; with it, the hook is
// given the new address to confirm and nothing changes yet.
func (h *Hub) ChangeOwnEmail(ctx context.Context, actor Actor, email string, proof auth.Proof, c auth.Client) (*EmailChange, error) {
	if err := self(actor); err != nil {
		return nil, err
	}
	proof.Field = "password"
	// The proof first: whether an address is taken is told only to the
	// account's owner, never to whoever holds a session.
	if err := h.Auth.CheckProof(ctx, actor.UserID, proof, c); err != nil {
		return nil, err
	}
	next, err := h.Auth.CheckNewEmail(actor.UserID, email)
	if err != nil {
		return nil, err
	}
	before, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return nil, err
	}
	if h.ConfirmNewEmail != nil {
		if err := h.ConfirmNewEmail(ctx, before, next, actor.Lang); err != nil {
			return nil, err
		}
		return &EmailChange{User: before, Pending: true}, nil
	}
	u, err := h.Auth.SetEmail(ctx, actor.UserID, next)
	if err != nil {
		return nil, err
	}
	h.log().Info("e-mail changed", slog.Uint64("user", u.ID), slog.String("from", before.Email), slog.String("to", u.Email))
	h.record(ctx, actor, audit.Event{Type: audit.EmailChanged, Target: u.Email,
		Details: map[string]string{"from": before.Email, "to": u.Email}})
	return &EmailChange{User: u}, nil
}

// SetOwnAvatar makes the picture data the actor's avatar: JPEG, PNG, GIF or
// WebP of at most MaxAvatarBytes, each side at least thumbs.MinSquareSide,
// its header read first so a picture too large to decode (a decompression
// bomb) is refused before a pixel is; the centred square is cut and scaled
// to AvatarSide.
func (h *Hub) SetOwnAvatar(ctx context.Context, actor Actor, data []byte) (*auth.User, error) {
	if err := self(actor); err != nil {
		return nil, err
	}
	if len(data) > MaxAvatarBytes {
		return nil, store.TooLarge("avatar", MaxAvatarBytes)
	}
	if len(data) == 0 {
		return nil, store.Invalid("avatar", "required", "send the picture as the request body")
	}
	jpeg, err := thumbs.Square(bytes.NewReader(data), AvatarSide, avatarLimits)
	switch {
	case errors.Is(err, thumbs.ErrUnsupported):
		return nil, store.Invalid("avatar", "unsupported", "the avatar must be a JPEG, PNG, GIF or WebP picture")
	case errors.Is(err, thumbs.ErrTooLarge):
		return nil, store.Refuse(store.KindTooLarge, "the picture has too many pixels to be an avatar")
	case errors.Is(err, thumbs.ErrTooSmall):
		return nil, store.Invalid("avatar", "too_small", fmt.Sprintf("the picture must be at least %d pixels on each side", thumbs.MinSquareSide))
	case errors.Is(err, thumbs.ErrCorrupt):
		return nil, store.Invalid("avatar", "corrupt", "the picture could not be read")
	case err != nil:
		return nil, err
	}
	u, err := h.Auth.SetAvatar(ctx, actor.UserID, jpeg)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.AvatarChanged, Target: u.Email, Details: map[string]string{"avatar": "set"}})
	return u, nil
}

// RemoveOwnAvatar forgets the actor's avatar.
func (h *Hub) RemoveOwnAvatar(ctx context.Context, actor Actor) (*auth.User, error) {
	if err := self(actor); err != nil {
		return nil, err
	}
	u, err := h.Auth.RemoveAvatar(ctx, actor.UserID)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.AvatarChanged, Target: u.Email, Details: map[string]string{"avatar": "removed"}})
	return u, nil
}

// errLastAdmin refuses the only administrator's own deletion: the site
// would be left with no one to run it.
var errLastAdmin = store.Refuse(store.KindConflict, "you are the site's only administrator: make another account an administrator first")

// DeleteOwnAccount deletes the actor's account, proven by the password (and
// the second factor when on): with deleteFiles its files go too, else they
// pass to the administrators. Every session ends. It returns how many
// files were deleted or passed on.
func (h *Hub) DeleteOwnAccount(ctx context.Context, actor Actor, proof auth.Proof, deleteFiles bool, c auth.Client) (int, error) {
	if err := self(actor); err != nil {
		return 0, err
	}
	proof.Field = "password"
	if err := h.Auth.CheckProof(ctx, actor.UserID, proof, c); err != nil {
		return 0, err
	}
	u, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return 0, err
	}
	if u.IsAdmin() {
		if n, err := h.Auth.CountAdmins(); err != nil {
			return 0, err
		} else if n <= 1 {
			return 0, errLastAdmin
		}
	}
	return h.deleteAccount(ctx, actor, u, deleteFiles)
}

// BundleLimits bound one "download selected" zip.
type BundleLimits struct {
	MaxFiles int
	MaxBytes int64
}

// BundleFiles checks the files ids for one zip download by the actor:
// every one must be a file the actor may read (else the whole request is
// not found), within the limits.
func (h *Hub) BundleFiles(actor Actor, ids []uint64, l BundleLimits) (*files.Bundle, error) {
	return h.Files.NewBundle(actor.viewer(), ids, l.MaxFiles, l.MaxBytes)
}
