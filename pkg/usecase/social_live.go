package usecase

import (
	"context"
	"log/slog"
)

// publish sends a live event to the open tabs of the accounts to; with no
// account to send to it sends nothing (the events hub reads a nil list as
// everyone).
func (h *Hub) publish(typ string, to []uint64, data any) {
	if len(to) == 0 {
		return
	}
	h.Events.Publish(typ, to, data)
}

// notify adds a notification of kind to account userID's list; a failure
// is logged, never the action's.
func (h *Hub) notify(ctx context.Context, userID uint64, kind string, data any) {
	if err := h.Notify.Add(context.WithoutCancel(ctx), userID, kind, data); err != nil {
		h.log().Warn("notification", slog.String("kind", kind), slog.Uint64("user", userID), slog.Any("err", err))
	}
}
