package server

import (
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// Cookies a browser keeps for one link (Path /s/<token>): that it gave the
// password, and that this visit's download was already counted — so the
// page's preview, the download button and a resumed download use up one
// download between them, not three.
const (
	shareUnlockCookie  = "devhub_share_unlock"
	shareCountedCookie = "devhub_share_counted"
	// shareGrantHeader carries the unlock grant for clients without cookies.
	shareGrantHeader = "X-Share-Grant"
	// shareGrantTTL is how long a grant lasts.
	shareGrantTTL = time.Hour
)

// linkPreviewBots are the user agents of the crawlers chat apps and social
// sites send to draw a preview of a pasted link: their fetches are not
// somebody downloading the file, so they never use up a download.
var linkPreviewBots = regexp.MustCompile(`(?i)facebookexternalhit|facebookcatalog|facebot|twitterbot|slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|linkedinbot|skypeuripreview|pinterest|redditbot|applebot|googlebot|bingbot|yandex|vkshare|embedly|iframely|mastodon|snapchat|viber|line-poker|kakaotalk-scrap|outbrain|quora link preview|bitlybot|tumblr|nuzzel|w3c_validator|google-pagerenderer|bot\b.*preview`)

// isLinkPreviewBot reports whether ua is a link-preview crawler.
func isLinkPreviewBot(ua string) bool { return linkPreviewBots.MatchString(ua) }

// mountShares registers the share link routes: management under /api and
// the link itself under /s/:token (the page is the SPA's).
func (s *Server) mountShares(app fiber.Router, api fiber.Router) {
	api.Post("/files/:id/shares", s.requireUser, s.createShare)
	api.Get("/files/:id/shares", s.requireUser, s.fileShares)
	api.Get("/shares", s.requireUser, s.myShares)
	api.Delete("/shares/:token", s.requireUser, s.revokeShare)

	// The link's page is the SPA's; for a link that is no more it answers
	// 410 (the page shows why), for none 404.
	app.Get("/s/:token", s.sharePageStatus)
	app.Get("/s/:token/info", s.shareInfo)
	app.Post("/s/:token/unlock", s.limitBody(4<<10), s.unlockShare)
	app.Get("/s/:token/download", s.shareDownload)
	app.Head("/s/:token/download", s.shareDownload)
}

// shareBase is where links live: server.public_url when set, else the
// address the request came to.
func (s *Server) shareBase(c fiber.Ctx) string {
	if s.cfg.Server.PublicURL != "" {
		return s.cfg.Server.PublicURL
	}
	return c.BaseURL()
}

func (s *Server) toShareJSON(c fiber.Ctx, sh shares.Share) shares.Link {
	return s.hub.ShareLink(sh, s.shareBase(c))
}

func (s *Server) toSharesJSON(c fiber.Ctx, list []shares.Share) []shares.Link {
	out := make([]shares.Link, 0, len(list))
	for _, sh := range list {
		out = append(out, s.toShareJSON(c, sh))
	}
	return out
}

// createShare answers POST /api/files/:id/shares {expiresIn?, password?,
// maxDownloads?} for the file's uploader or an admin.
func (s *Server) createShare(c fiber.Ctx) error {
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	var in struct {
		ExpiresIn    any     `json:"expiresIn"`
		Password     *string `json:"password"`
		MaxDownloads *int    `json:"maxDownloads"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ttl, err := parseExpiresIn(in.ExpiresIn)
	if err != nil {
		return store.Invalid("expiresIn", "invalid", err.Error())
	}
	sh, err := s.hub.CreateShare(c.Context(), s.actor(c), id, usecase.NewShare{TTL: ttl, Password: in.Password, MaxDownloads: in.MaxDownloads})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(s.toShareJSON(c, *sh))
}

// parseExpiresIn reads expiresIn: a duration such as "7d" or "36h", or a
// number of seconds; absent is the default lifetime.
func parseExpiresIn(v any) (time.Duration, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		if x < 1 || x != float64(int64(x)) {
			return 0, errors.New("expiresIn must be a positive number of seconds or a duration such as 7d or 36h")
		}
		return time.Duration(x) * time.Second, nil
	case string:
		d, err := auth.ParseTTL(x)
		if err != nil {
			return 0, err
		}
		if d <= 0 {
			return 0, errors.New("expiresIn must be positive")
		}
		return d, nil
	}
	return 0, errors.New("expiresIn must be a duration such as 7d or 36h, or a number of seconds")
}

// fileShares answers GET /api/files/:id/shares: every link of the file.
func (s *Server) fileShares(c fiber.Ctx) error {
	f, err := s.fileForChange(c)
	if err != nil {
		return err
	}
	list, err := s.svc.Shares.List(shares.Filter{FileID: f.ID})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(s.toSharesJSON(c, list))
}

// myShares answers GET /api/shares: the links the caller made.
func (s *Server) myShares(c fiber.Ctx) error {
	id := currentUser(c)
	list, err := s.svc.Shares.List(shares.Filter{CreatedBy: &id.ID})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(s.toSharesJSON(c, list))
}

// revokeShare answers DELETE /api/shares/:token: the link's maker, the
// file's uploader or an admin ends it.
func (s *Server) revokeShare(c fiber.Ctx) error {
	if _, err := s.hub.RevokeShare(c.Context(), s.actor(c), c.Params("token")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// shareGone is the 410 of a link that is no more.
func shareGone() error {
	return NewError(fiber.StatusGone, "this share link has expired, was used up or was revoked")
}

// openShare finds the link :token for a visitor: 404 for no such link, 410
// for one no longer usable — unless this visit's download was already
// counted (a used-up link still finishes the visit that used it up).
func (s *Server) openShare(c fiber.Ctx) (*shares.Share, bool, error) {
	token := c.Params("token")
	sh, err := s.svc.Shares.Get(token)
	if err != nil {
		return nil, false, err
	}
	counted := s.svc.Shares.CheckGrant(token, shares.GrantCounted, c.Cookies(shareCountedCookie))
	switch sh.State(s.svc.Shares.Now()) {
	case shares.StateActive:
	case shares.StateUsedUp:
		if !counted {
			return nil, false, shareGone()
		}
	default:
		return nil, false, shareGone()
	}
	if _, err := s.svc.Files.Get(sh.FileID); err != nil {
		return nil, false, shareGone() // the file was deleted: the link is no more
	}
	return sh, counted, nil
}

// unlocked reports whether the request may see a link's file: no password,
// or a grant from unlocking it (cookie, or header for scripts).
func (s *Server) unlocked(c fiber.Ctx, sh *shares.Share) bool {
	if !sh.HasPassword() {
		return true
	}
	g := c.Get(shareGrantHeader)
	if g == "" {
		g = c.Cookies(shareUnlockCookie)
	}
	return s.svc.Shares.CheckGrant(sh.Token, shares.GrantUnlocked, g)
}

func (s *Server) setShareCookie(c fiber.Ctx, token, name, value string, exp time.Time) {
	c.Cookie(&fiber.Cookie{Name: name, Value: value, Path: "/s/" + token, Expires: exp,
		MaxAge: int(exp.Sub(s.svc.Shares.Now()) / time.Second), HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: s.hsts})
}

// spaStatusKey holds a status for the SPA's page (serveSite) to answer with.
const spaStatusKey = "devhub.spaStatus"

// sharePageStatus notes the status of GET /s/:token before the SPA serves
// the page: 410 for a link that expired, was used up or revoked, 404 for
// none.
func (s *Server) sharePageStatus(c fiber.Ctx) error {
	if _, _, err := s.openShare(c); err != nil {
		status := fiber.StatusNotFound
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status == fiber.StatusGone {
			status = fiber.StatusGone
		}
		c.Locals(spaStatusKey, status)
	}
	return c.Next()
}

// shareInfoJSON is what the link's page shows: the file once unlocked.
type shareInfoJSON struct {
	PasswordRequired bool       `json:"passwordRequired"`
	Locked           bool       `json:"locked"`
	ExpiresAt        time.Time  `json:"expiresAt"`
	DownloadsLeft    *int       `json:"downloadsLeft"`
	File             *shareFile `json:"file,omitempty"`
}

type shareFile struct {
	Name     string `json:"name"`
	Size     int64  `json:"size"`
	Mimetype string `json:"mimetype"`
	Type     string `json:"type"`
	// Inline says the browser may show it (the preview): an image (not
	// SVG), audio, video or PDF.
	Inline bool `json:"inline"`
}

// shareInfo answers GET /s/:token/info for the link's page.
func (s *Server) shareInfo(c fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	sh, _, err := s.openShare(c)
	if err != nil {
		return err
	}
	out := shareInfoJSON{PasswordRequired: sh.HasPassword(), ExpiresAt: sh.ExpiresAt}
	if sh.MaxDownloads > 0 {
		left := max(sh.MaxDownloads-sh.Downloads, 0)
		out.DownloadsLeft = &left
	}
	if !s.unlocked(c, sh) {
		out.Locked = true
		return c.JSON(out)
	}
	f, err := s.svc.Files.Get(sh.FileID)
	if err != nil {
		return shareGone()
	}
	out.File = &shareFile{Name: f.OriginalName, Size: f.Size, Mimetype: f.MimeType, Type: f.Type,
		Inline: inlineTypes[mimeBase(f.MimeType)]}
	return c.JSON(out)
}

// unlockShare answers POST /s/:token/unlock {password}: right → 200 with a
// grant (also set as a cookie for the page's download and preview), wrong →
// 401, too many wrong guesses → 429, like signing in.
func (s *Server) unlockShare(c fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	sh, _, err := s.openShare(c)
	if err != nil {
		return err
	}
	var in struct {
		Password string `json:"password"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if _, err := s.svc.Shares.Unlock(sh.Token, in.Password, s.clientIP(c)); err != nil {
		var te *auth.ThrottledError
		switch {
		case errors.As(err, &te):
			return store.TooMany(fmt.Sprintf("too many wrong passwords; try again in %d s", store.RetryAfterSeconds(te.RetryAfter)), te.RetryAfter)
		case errors.Is(err, shares.ErrWrongPassword):
			return NewError(fiber.StatusUnauthorized, "wrong password")
		case errors.Is(err, shares.ErrGone):
			return shareGone()
		}
		return err
	}
	exp := s.svc.Shares.Now().Add(shareGrantTTL)
	grant := s.svc.Shares.Grant(sh.Token, shares.GrantUnlocked, exp)
	s.setShareCookie(c, sh.Token, shareUnlockCookie, grant, exp)
	return c.JSON(fiber.Map{"grant": grant, "expiresAt": exp.UTC()})
}

// shareDownload answers GET and HEAD /s/:token/download[?inline=1]: the
// file's bytes with Range, as the file routes send them. A GET uses up one
// download of a limited link — not a HEAD request, not a link-preview bot,
// not a further request of a visit whose download was already counted (its
// cookie: the page's preview, the download and a browser's resumed
// download are one visit).
//
// A Range request without that cookie counts too: were continuations free,
// `Range: bytes=1-` would fetch a limited link's file any number of times.
// And a link-preview bot's GET of a limited link gets the file's thumbnail
// (what a link's card shows), or 403 when it has none, never the file: a
// bot's User-Agent is anybody's to send, so a free full answer would be the
// same way round the limit. A link without a maximum has nothing to guard,
// and bots get the bytes.
func (s *Server) shareDownload(c fiber.Ctx) error {
	h := &c.Response().Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", userFileCSP)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Referrer-Policy", "no-referrer")
	sh, counted, err := s.openShare(c)
	if err != nil {
		return err
	}
	if !s.unlocked(c, sh) {
		return NewError(fiber.StatusUnauthorized, "this share link needs its password")
	}
	head := c.Request().Header.IsHead()
	bot := isLinkPreviewBot(c.Get(fiber.HeaderUserAgent))
	if sh.MaxDownloads > 0 {
		// A bot gets a thumbnail where a person gets the file: a cache
		// that keeps either must keep them apart.
		h.Add(fiber.HeaderVary, fiber.HeaderUserAgent)
	}
	if bot && !head && !counted && sh.MaxDownloads > 0 {
		return s.shareBotPreview(c, sh)
	}
	var count func() error
	if !head && !counted && !bot {
		// Counted once the answer is known to be the bytes (or the
		// redirect to them): a 304 or a 416 sends none, so it uses up
		// nothing.
		count = func() error { return s.countShareDownload(c, sh, sh.FileID) }
	}
	inline := c.Query("inline") == "1"
	if rf, err := s.svc.Files.Get(sh.FileID); err == nil {
		if done, err := s.redirectUserFile(c, rf, inline, count); done {
			return err
		}
	}
	f, fh, err := s.svc.Files.Open(sh.FileID)
	if err != nil {
		return shareGone()
	}
	return s.sendOpenedFile(c, f, fh, inline, count)
}

// countShareDownload uses up one download of sh for a visit and marks the
// visit counted (its cookie), logged and audited; a link used up meanwhile
// is 410.
func (s *Server) countShareDownload(c fiber.Ctx, sh *shares.Share, fileID uint64) error {
	used, err := s.svc.Shares.Use(c.Context(), sh.Token)
	if errors.Is(err, shares.ErrGone) {
		return shareGone()
	}
	if err != nil {
		return err
	}
	exp := s.svc.Shares.Now().Add(shareGrantTTL)
	s.setShareCookie(c, sh.Token, shareCountedCookie, s.svc.Shares.Grant(sh.Token, shares.GrantCounted, exp), exp)
	s.logFor(c).Info("share link used", slog.String("link", usecase.ShareRef(sh.Token)), slog.Uint64("file", fileID),
		slog.Int("downloads", used.Downloads))
	s.record(c, audit.Event{Type: audit.ShareUsed, Actor: "link " + usecase.ShareRef(sh.Token),
		Target: "file " + strconv.FormatUint(fileID, 10), Details: map[string]string{"downloads": strconv.Itoa(used.Downloads)}})
	return nil
}

// shareBotPreview answers a link-preview bot on a limited link: the file's
// thumbnail when it has one, else 403 — the file itself only to a visitor
// whose download counts.
func (s *Server) shareBotPreview(c fiber.Ctx, sh *shares.Share) error {
	f, err := s.svc.Files.Get(sh.FileID)
	if err != nil {
		return shareGone()
	}
	if s.svc.Thumbs != nil && f.Type == files.TypeImage {
		src := thumbSource(*f)
		if fh, size, err := s.svc.Thumbs.Open(src); err == nil {
			return sendContent(c, &content{
				contentType: "image/jpeg", cacheControl: thumbRevalidated,
				etag: `"` + src.Version() + `"`, lastModified: f.UploadedAt,
				identity: payload{size: size, file: fh},
			})
		}
	}
	return NewError(fiber.StatusForbidden, "a link with a limited number of downloads shows link previews only a thumbnail")
}
