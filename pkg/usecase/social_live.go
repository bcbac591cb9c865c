package usecase

import "context"

// publish sends a live event to the open tabs of the accounts to.
func (h *Hub) publish(typ string, to []uint64, data any) {
	_, _, _ = typ, to, data
}

// notify adds a notification of kind to account userID's list; a failure
// is logged, never the action's.
func (h *Hub) notify(ctx context.Context, userID uint64, kind string, data any) {
	_, _, _, _ = ctx, userID, kind, data
}
