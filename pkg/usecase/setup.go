package usecase

import (
	"context"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/store"
)

// CheckOwnerSetup answers whether the first-run link's token is live (the
// page shows its form) or dead (ErrSetupLinkDead).
func (h *Hub) CheckOwnerSetup(token string) error {
	if h.Setup == nil {
		return auth.ErrSetupLinkDead
	}
	return h.Setup.Check(token)
}

// CreateOwner creates the owner's admin account from the first-run link
// and signs it in; anyone holding the live link may, nobody else.
func (h *Hub) CreateOwner(ctx context.Context, actor Actor, in auth.OwnerInput, c auth.Client) (*auth.AuthResult, error) {
	if h.Setup == nil {
		return nil, auth.ErrSetupLinkDead
	}
	res, err := h.Setup.Complete(ctx, in, c)
	if err != nil {
		if store.KindOf(err) == store.KindNotFound {
			h.log().Warn("a dead first-run link was used", "ip", actor.IP)
		}
		return nil, err
	}
	owner := Actor{UserID: res.User.ID, Email: res.User.Email, Admin: true, IP: actor.IP}
	h.record(ctx, owner, audit.Event{Type: audit.UserCreated, Target: res.User.Email,
		Details: map[string]string{"via": "first-run link", "role": auth.RoleAdmin}})
	return res, nil
}
