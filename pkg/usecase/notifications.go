package usecase

import "github.com/devhub/devhub/pkg/notify"

// Notifications is a page of the actor's own notifications.
func (h *Hub) Notifications(actor Actor, before uint64, limit int) (notify.Page, error) {
	if err := requireAccount(actor); err != nil {
		return notify.Page{}, err
	}
	return h.Notify.List(actor.UserID, before, limit)
}

// ReadNotifications marks the actor's notifications ids (or all of them)
// read and returns how many stay unread.
func (h *Hub) ReadNotifications(actor Actor, ids []uint64, all bool) (int, error) {
	if err := requireAccount(actor); err != nil {
		return 0, err
	}
	return h.Notify.MarkRead(actor.UserID, ids, all)
}

// NotificationSettings are the kinds the actor receives, and whether
// unread ones are mailed as a digest (only where mail is configured).
func (h *Hub) NotificationSettings(actor Actor) (notify.Settings, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	return h.withoutDigest(h.Notify.Settings(actor.UserID))
}

// withoutDigest leaves the digest setting out where mail is off: there is
// no digest to turn on or off.
func (h *Hub) withoutDigest(set notify.Settings, err error) (notify.Settings, error) {
	if err == nil && h.Mail == nil {
		delete(set, notify.SettingEmailDigest)
	}
	return set, err
}

// SetNotificationSettings turns the kinds named in change on or off for the
// actor.
func (h *Hub) SetNotificationSettings(actor Actor, change notify.Settings) (notify.Settings, error) {
	if err := requireAccount(actor); err != nil {
		return nil, err
	}
	return h.withoutDigest(h.Notify.SetSettings(actor.UserID, change))
}
