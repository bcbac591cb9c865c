package usecase

import (
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/discuss"
)

// avatarLookup finds accounts' avatar URLs for one answer, each account
// once: comments, posts and messages carry their author's current avatar
// (or none: the page then shows the name's initial).
type avatarLookup struct {
	h    *Hub
	seen map[uint64]string
}

func (h *Hub) avatarLookup() *avatarLookup {
	return &avatarLookup{h: h, seen: map[uint64]string{}}
}

// of is account id's avatar URL; "" when it has none or no longer exists.
func (a *avatarLookup) of(id uint64) string {
	if id == 0 || a.h.Auth == nil {
		return ""
	}
	if url, ok := a.seen[id]; ok {
		return url
	}
	url := ""
	if u, err := a.h.Auth.UserByID(id); err == nil {
		url = u.AvatarURL
	}
	a.seen[id] = url
	return url
}

func (a *avatarLookup) comments(cs []discuss.Comment) {
	for i := range cs {
		cs[i].Author.AvatarURL = a.of(cs[i].Author.ID)
	}
}

func (a *avatarLookup) posts(ps []discuss.Post) {
	for i := range ps {
		ps[i].Author.AvatarURL = a.of(ps[i].Author.ID)
	}
}

func (a *avatarLookup) messages(ms []chat.Message) {
	for i := range ms {
		ms[i].Author.AvatarURL = a.of(ms[i].Author.ID)
	}
}

// avatarOf is a Person's avatar: the account's avatar URL, null without one.
func (h *Hub) avatarOf(url string) *string {
	if url == "" {
		return nil
	}
	return &url
}
