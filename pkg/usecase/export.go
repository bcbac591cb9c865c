package usecase

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/notify"
)

// accountExport is account.json in a copy of an account's data.
type accountExport struct {
	ExportedAt time.Time             `json:"exportedAt"`
	Account    auth.User             `json:"account"`
	TwoFactor  *auth.TwoFactorStatus `json:"twoFactor,omitempty"`
	Sessions   []exportedSession     `json:"sessions"`
	// Files are the account's uploads; Path is each one's entry in the zip.
	Files []exportedFile `json:"files"`
}

type exportedSession struct {
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
	IP         string    `json:"ip,omitempty"`
	UserAgent  string    `json:"userAgent,omitempty"`
}

type exportedFile struct {
	files.Info
	Path string `json:"path"`
}

// Export is a copy of an account's data, ready to be written as a zip.
type Export struct {
	h *Hub
	// entries are the JSON documents, account.json first, in zip order.
	entries []exportEntry
	files   []files.File
	names   []string
	at      time.Time
}

type exportEntry struct {
	name string
	data []byte
}

// ExportOwnData gathers the actor's account (its settings, sessions,
// second-factor state), the list of its files, and what it wrote and
// received here: its comments and forum posts, its chat messages, its
// direct conversations (both sides: they are the account's own), its
// friends, requests and blocks, and its notifications with their
// settings. Export.WriteZip then streams them as a zip. Nothing is written before this has succeeded, so a
// refusal is a clean error answer.
func (h *Hub) ExportOwnData(ctx context.Context, actor Actor) (*Export, error) {
	if err := self(actor); err != nil {
		return nil, err
	}
	u, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	out := accountExport{ExportedAt: now, Account: *u, Sessions: []exportedSession{}, Files: []exportedFile{}}
	if tf, err := h.Auth.TwoFactor(u.Email); err == nil {
		out.TwoFactor = tf
	}
	sessions, err := h.Auth.Sessions(u.Email)
	if err != nil {
		return nil, err
	}
	for _, s := range sessions {
		out.Sessions = append(out.Sessions, exportedSession{CreatedAt: s.CreatedAt, LastUsedAt: s.LastUsedAt, IP: s.IP, UserAgent: s.UserAgent})
	}
	ex := &Export{h: h, at: now}
	if h.Files != nil {
		ex.files = h.Files.UploadedBy(u.ID)
		ex.names = files.EntryNames(ex.files, "files/")
		for i, f := range ex.files {
			out.Files = append(out.Files, exportedFile{Info: f.Info(true), Path: ex.names[i]})
		}
	}
	if err := ex.add("account.json", out); err != nil {
		return nil, err
	}
	if err := h.exportActivity(ctx, actor, ex); err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.DataExported, Target: u.Email,
		Details: map[string]string{"files": fmt.Sprint(len(ex.files))}})
	return ex, nil
}

func (e *Export) add(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	e.entries = append(e.entries, exportEntry{name, data})
	return nil
}

// The documents beside account.json in a copy of an account's data.
type (
	exportedWriting struct {
		Comments []discuss.Comment      `json:"comments"`
		Posts    []discuss.AuthoredPost `json:"forumPosts"`
	}
	exportedChat struct {
		Messages []chat.Message `json:"messages"`
	}
	exportedConversation struct {
		User     Person          `json:"user"`
		Messages []DirectMessage `json:"messages"`
	}
	exportedMessages struct {
		Conversations []exportedConversation `json:"conversations"`
	}
	exportedNotifications struct {
		Settings      notify.Settings       `json:"settings"`
		Notifications []notify.Notification `json:"notifications"`
	}
)

// exportPage is how many conversation messages or notifications one read
// gathers while an export pages through them.
const exportPage = 200

// exportActivity adds writing.json, chat.json, messages.json, friends.json
// and notifications.json for the services this hub has.
func (h *Hub) exportActivity(ctx context.Context, actor Actor, ex *Export) error {
	if h.Discuss != nil {
		w, err := h.Discuss.WrittenBy(actor.UserID)
		if err != nil {
			return err
		}
		if err := ex.add("writing.json", exportedWriting{Comments: w.Comments, Posts: w.Posts}); err != nil {
			return err
		}
	}
	if h.Chat != nil {
		msgs, err := h.Chat.WrittenBy(actor.UserID)
		if err != nil {
			return err
		}
		if err := ex.add("chat.json", exportedChat{Messages: msgs}); err != nil {
			return err
		}
	}
	if h.Social != nil {
		convs, err := h.exportConversations(ctx, actor)
		if err != nil {
			return err
		}
		if err := ex.add("messages.json", exportedMessages{Conversations: convs}); err != nil {
			return err
		}
		friends, err := h.Friends(ctx, actor)
		if err != nil {
			return err
		}
		if err := ex.add("friends.json", friends); err != nil {
			return err
		}
	}
	if h.Notify != nil {
		n, err := h.exportNotifications(actor)
		if err != nil {
			return err
		}
		if err := ex.add("notifications.json", n); err != nil {
			return err
		}
	}
	return nil
}

// exportConversations is every direct conversation of the actor, each
// oldest message first. The contact form's conversation an admin sees is
// the site's mail, not the account's, and stays out.
func (h *Hub) exportConversations(ctx context.Context, actor Actor) ([]exportedConversation, error) {
	list, err := h.Conversations(ctx, actor)
	if err != nil {
		return nil, err
	}
	out := []exportedConversation{}
	for _, c := range list {
		if c.Kind != KindDirect {
			continue
		}
		var msgs []DirectMessage
		for before := uint64(0); ; {
			page, err := h.ConversationMessages(ctx, actor, c.User.ID, before, exportPage)
			if err != nil {
				return nil, err
			}
			msgs = append(page.Messages, msgs...)
			if !page.HasMore || len(page.Messages) == 0 {
				break
			}
			before = page.Messages[0].ID
		}
		out = append(out, exportedConversation{User: c.User, Messages: msgs})
	}
	return out, nil
}

func (h *Hub) exportNotifications(actor Actor) (*exportedNotifications, error) {
	set, err := h.NotificationSettings(actor)
	if err != nil {
		return nil, err
	}
	out := &exportedNotifications{Settings: set, Notifications: []notify.Notification{}}
	for before := uint64(0); ; {
		page, err := h.Notifications(actor, before, exportPage)
		if err != nil {
			return nil, err
		}
		out.Notifications = append(out.Notifications, page.Items...)
		if page.Next == 0 {
			return out, nil
		}
		before = page.Next
	}
}

// WriteZip streams the export to w: account.json and the other documents,
// then each file under files/.
func (e *Export) WriteZip(ctx context.Context, w io.Writer) error {
	zw := zip.NewWriter(w)
	for _, en := range e.entries {
		if err := files.WriteJSONEntry(zw, en.name, en.data, e.at); err != nil {
			return err
		}
	}
	if len(e.files) > 0 {
		if err := e.h.Files.WriteZip(ctx, zw, e.files, e.names); err != nil {
			return err
		}
	}
	return zw.Close()
}
