package usecase

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/store"
)

// NewShare is what a share link is made with. TTL 0 is the default
// lifetime; Password nil is a link without one; MaxDownloads nil is no limit.
type NewShare struct {
	TTL          time.Duration
	Password     *string
	MaxDownloads *int
}

// CreateShare makes a share link to file fileID for its uploader, an admin
// or the owner.
func (h *Hub) CreateShare(ctx context.Context, actor Actor, fileID uint64, in NewShare) (*shares.Share, error) {
	f, err := h.FileForChange(actor, fileID)
	if err != nil {
		return nil, err
	}
	var v store.Validator
	if in.TTL < 0 {
		v.Add("expiresIn", "invalid", "expiresIn must be positive")
	}
	maxDl := 0
	if in.MaxDownloads != nil {
		if *in.MaxDownloads < 1 {
			v.Add("maxDownloads", "invalid", "maxDownloads must be at least 1 (leave it out for no limit)")
		}
		maxDl = *in.MaxDownloads
	}
	pw := ""
	if in.Password != nil {
		if *in.Password == "" {
			v.Add("password", "required", "password must not be empty (leave it out for a link without one)")
		}
		pw = *in.Password
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	sh, err := h.Shares.Create(ctx, shares.NewShare{FileID: f.ID, CreatedBy: actor.UserID, Creator: actor.Name(),
		TTL: in.TTL, Password: pw, MaxDownloads: maxDl})
	if err != nil {
		return nil, err
	}
	h.log().Info("share link made", slog.Uint64("file", f.ID), slog.String("link", ShareRef(sh.Token)), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: audit.ShareCreated, Target: fileTarget(f.ID), Details: shareDetails(sh)})
	return sh, nil
}

// RevokeShare ends the link token for its maker, the file's uploader, an
// admin or the owner. To anyone else a link is not acknowledged either way:
// not found.
func (h *Hub) RevokeShare(ctx context.Context, actor Actor, token string) (*shares.Share, error) {
	sh, err := h.Shares.Get(token)
	if err != nil {
		return nil, err
	}
	allowed := actor.Admin || (actor.UserID != 0 && sh.CreatedBy == actor.UserID)
	if !allowed {
		if f, err := h.Files.Get(sh.FileID); err == nil && f.MayChange(actor.viewer()) {
			allowed = true
		}
	}
	if !allowed {
		return nil, store.ErrNotFound
	}
	if sh, err = h.Shares.Revoke(ctx, token); err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.ShareRevoked, Target: fileTarget(sh.FileID),
		Details: map[string]string{"link": ShareRef(token)}})
	return sh, nil
}

// ShareLink is sh as the API and the CLI show it, its URL under base (the
// site's public URL; empty gives the path alone).
func (h *Hub) ShareLink(sh shares.Share, base string) shares.Link {
	name := ""
	if f, err := h.Files.Get(sh.FileID); err == nil {
		name = f.OriginalName
	}
	return sh.Link(base, name, h.Shares.Now())
}

// shareDetails is what the audit log notes of a link: never the token
// itself (the log is read by every admin; the token is the key).
func shareDetails(sh *shares.Share) map[string]string {
	d := map[string]string{"link": ShareRef(sh.Token), "expiresAt": sh.ExpiresAt.Format(time.RFC3339),
		"password": strconv.FormatBool(sh.HasPassword())}
	if sh.MaxDownloads > 0 {
		d["maxDownloads"] = strconv.Itoa(sh.MaxDownloads)
	}
	return d
}

// ShareRef names a link in logs by the start of its token only.
func ShareRef(token string) string {
	if len(token) > 6 {
		return token[:6] + "…"
	}
	return token
}

func fileTarget(id uint64) string { return "file " + strconv.FormatUint(id, 10) }
