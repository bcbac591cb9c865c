// Package usecase is devhub's use-case layer: each action a person takes on
// the site or at the terminal (delete an account, make a share link, …) is
// one function here. It takes the context and the actor (who asks), checks
// that the actor may, does the work through the domain services and records
// its audit event. The HTTP handlers (pkg/server) and the CLI commands
// (pkg/cli) only parse their input, call it and render its answer, so the
// two never drift apart. Domain packages stay below this layer and never
// import it.
package usecase

import (
	"context"
	"log/slog"
	"sync"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/social"
)

// Actor is who asks for an action.
type Actor struct {
	// UserID and Email name a signed-in account; both are zero for the
	// owner at the terminal.
	UserID uint64
	Email  string
	Admin  bool
	// IP is the client's address (empty at the terminal).
	IP string
	// Lang is the language the actor reads letters in, where the request
	// said (empty: the account's own, else the site's).
	Lang  string
	owner bool
}

// OwnerName is how the audit log names the owner at the terminal.
const OwnerName = "owner (CLI)"

// Owner is the owner at the terminal: every right, no account.
func Owner() Actor { return Actor{Admin: true, owner: true} }

// User is a signed-in account acting from address ip.
func User(p *auth.Principal, ip string) Actor {
	if p == nil {
		return Actor{IP: ip}
	}
	return Actor{UserID: p.ID, Email: p.Email, Admin: p.IsAdmin(), IP: ip}
}

// Name is how logs and the audit log name the actor.
func (a Actor) Name() string {
	if a.owner {
		return OwnerName
	}
	return a.Email
}

// viewer is the actor as the file cloud's permission checks see it.
func (a Actor) viewer() *files.Viewer { return &files.Viewer{ID: a.UserID, Admin: a.Admin} }

// Hub holds the domain services the use-cases work with. Audit may be nil
// (nothing recorded); the others a use-case needs must be set.
type Hub struct {
	Auth   *auth.Service
	Files  *files.Service
	Shares *shares.Service
	Audit  *audit.Service
	Log    *slog.Logger
	// Blog is the articles: their use-cases, and the check that an article
	// exists (and may be read) for its comments.
	Blog *blog.Service
	// Discuss is comments, the forum and their moderation.
	Discuss *discuss.Service
	// Events fans live events out to signed-in users' streams and Notify
	// stores their notifications (publishing each); a nil one of either
	// publishes or stores nothing.
	Events *events.Hub
	Notify *notify.Service
	// Chat is the chat room.
	Chat *chat.Service
	// Downloads is the download catalogue (/programs, /alavar).
	Downloads *downloads.Service
	// Social is friends, blocks and direct messages; ContactMail, when set,
	// also sends each contact form message by e-mail (where mail is
	// configured).
	Social      *social.Service
	ContactMail func(ctx context.Context, m social.Message) error
	// ConfirmNewEmail, when set, is given an account's next e-mail to
	// confirm (a link sent to the new address, in lang); the change waits
	// for it. Unset (no mail configured), a change of e-mail is made at
	// once. MailEmailChangeLink is the one serve sets.
	ConfirmNewEmail func(ctx context.Context, u *auth.User, next, lang string) error
	// Setup is the first-run link (nil: none was made).
	Setup *auth.OwnerSetup
	// Mail queues outgoing e-mail; nil when mail is off.
	Mail *mail.Queue
	// PublicURL is server.public_url, the base of links in letters.
	PublicURL string
	// Newsletter is the blog's newsletter (its subscribers and what was
	// mailed); it works only with Mail and PublicURL set.
	Newsletter *newsletter.Service
	// SiteName, when set, is the name the owner gave the site in a language
	// ("" when they gave none); letters call the site by it.
	SiteName func(lang string) string

	// background tracks work left running after an answer (Wait).
	background sync.WaitGroup
}

// record writes ev to the audit log as done by actor. An action that
// happened is recorded even if the request that asked for it was closed
// meanwhile; a failure to record is logged, never undoes the action.
func (h *Hub) record(ctx context.Context, actor Actor, ev audit.Event) {
	if h.Audit == nil {
		return
	}
	ev.Actor, ev.IP = actor.Name(), actor.IP
	if err := h.Audit.Record(context.WithoutCancel(ctx), ev); err != nil {
		h.log().Warn("audit log", slog.String("type", ev.Type), slog.Any("err", err))
	}
}

func (h *Hub) log() *slog.Logger {
	if h.Log == nil {
		return slog.Default()
	}
	return h.Log
}
