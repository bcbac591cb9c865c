// Package server is devhub's HTTP layer: one Fiber app with the shared
// middleware (recovery, request log, security headers, body limit), one error
// shape, the embedded SPA, and one routes_<area>.go per product area. Handlers
// stay thin: decode, call a domain service, encode. Domain packages never see
// Fiber.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/netip"
	"net/url"
	"runtime/debug"
	"strings"

	"github.com/gofiber/fiber/v3"
	recoverer "github.com/gofiber/fiber/v3/middleware/recover"
	"github.com/gofiber/fiber/v3/middleware/requestid"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/backup"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/gamecontrols"
	"github.com/devhub/devhub/pkg/gameshelf"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/profile"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/readiness"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/thumbs"
	"github.com/devhub/devhub/pkg/usecase"
)

// Services are the domain services the HTTP layer binds. pkg/cli builds
// them once and shares them with the owner socket, so the API and the CLI
// run the very same code. Every service is required (New refuses Services
// without one, check) except those whose comment says what nil means.
type Services struct {
	Store *store.Store
	// Authenticate turns a bearer access token into the caller's principal
	// (auth.Service.Authenticate). It is a function rather than the auth
	// service itself so that this package's middleware does not depend on
	// how accounts are stored; nil refuses every token.
	Authenticate func(token string) (*auth.Principal, error)
	// Roms is the games library (/romserv, /api/games).
	Roms *roms.Service
	// Auth is the accounts service (/api/auth).
	Auth *auth.Service
	// Activity is the activity log (POST /api/activity/log).
	Activity *activity.Service
	// GeoIP places client addresses (GET /api/ip); a set without databases
	// answers Unknown.
	GeoIP *geoip.Set
	// ReverseDNS names an address (the IP report's hostname); nil uses the
	// system resolver.
	ReverseDNS func(ctx context.Context, addr string) ([]string, error)
	// Files is the file cloud (/api/files).
	Files *files.Service
	// TusDir is where unfinished resumable uploads are staged (on the
	// uploads' disk, resumable.Dir).
	TusDir string
	// Reserve is the free space kept on the store's and the uploads' disks
	// (storage.min_free_bytes), which the staging of resumable uploads is
	// held to; the domain services hold their own writes to it.
	Reserve *freespace.Reserve
	// Thumbs keeps the image thumbnails (GET /api/files/:id/thumbnail);
	// nil: no file has one.
	Thumbs *thumbs.Service
	// Quota is every account's storage quota (GET /api/auth/quota).
	Quota *quota.Service
	// Shares are the file cloud's share links (/api/files/:id/shares,
	// /s/:token).
	Shares *shares.Service
	// Blog is the blog (/api/blog, /feed.xml).
	Blog *blog.Service
	// Audit is the security audit log (GET /api/audit).
	Audit *audit.Service
	// Profile is the owner's checked content/profile.yaml (GET /api/profile); nil answers 404.
	Profile *profile.Loaded
	// PortfolioDir is the content directory PUT /api/profile writes profile.yaml into, and
	// PortfolioIcons the icon set its icons are checked against; empty leaves the portfolio
	// read-only.
	PortfolioDir   string
	PortfolioIcons profile.IconExists
	// GameStates keeps players' save states (/api/games/:gameId/states).
	GameStates *gamestates.Service
	// Shelf keeps players' favourite and recently played games
	// (/api/games/me).
	Shelf *gameshelf.Service
	// Controls keeps players' controls per console
	// (/api/games/controls/:console).
	Controls *gamecontrols.Service
	// Discuss is comments, the forum and their moderation (/api/forum,
	// /api/blog/:id/comments, /api/comments, /api/moderation).
	Discuss *discuss.Service
	// Events fans live events out to the signed-in users' streams
	// (/api/events).
	Events *events.Hub
	// Notify keeps the users' notifications (/api/notifications).
	Notify *notify.Service
	// Chat is the chat room (/api/chat).
	Chat *chat.Service
	// Downloads is the download catalogue (/api/downloads, /programs,
	// /alavar).
	Downloads *downloads.Service
	// Social is people search, friends, blocks, direct messages and the
	// contact form (/api/users, /api/friends, /api/blocks,
	// /api/conversations, /api/contact).
	Social *social.Service
	// Setup is the first run's one-time link to create the owner's account
	// (/api/setup); nil: no link was made.
	Setup *auth.OwnerSetup
	// Ready are the readiness checks of GET /readyz; nil: always ready.
	Ready *readiness.Registry
	// Mail queues outgoing e-mail (password reset links); nil when mail is
	// off. Its Health belongs in the readiness check.
	Mail *mail.Queue
	// Newsletter is the blog's newsletter (/api/newsletter); it works only
	// with Mail and server.public_url set.
	Newsletter *newsletter.Service
	// ConfirmNewEmail and ContactMail are the use-cases' mail hooks (see
	// usecase.Hub): serve sets them where mail and server.public_url are
	// configured; nil keeps a change of e-mail immediate and contact form
	// messages unmailed.
	ConfirmNewEmail func(ctx context.Context, u *auth.User, next, lang string) error
	ContactMail     func(ctx context.Context, m social.Message) error
	// Backups runs the scheduled backups; nil without backup.schedule. Its
	// Health (the last scheduled backup's failure) belongs in the readiness
	// check, its counts in /metrics.
	Backups *backup.Scheduler
}

// check refuses Services that lack a required service: handlers use each
// of them without asking whether it is there, so a server without one must
// not start.
func (s *Services) check() error {
	if s == nil {
		return errors.New("server: no services")
	}
	var missing []string
	for _, r := range []struct {
		name    string
		missing bool
	}{
		{"Store", s.Store == nil}, {"Roms", s.Roms == nil}, {"Auth", s.Auth == nil}, {"Activity", s.Activity == nil},
		{"GeoIP", s.GeoIP == nil}, {"Files", s.Files == nil}, {"TusDir", s.TusDir == ""}, {"Reserve", s.Reserve == nil},
		{"Quota", s.Quota == nil}, {"Shares", s.Shares == nil}, {"Blog", s.Blog == nil}, {"Audit", s.Audit == nil},
		{"GameStates", s.GameStates == nil}, {"Shelf", s.Shelf == nil}, {"Controls", s.Controls == nil},
		{"Discuss", s.Discuss == nil}, {"Events", s.Events == nil}, {"Notify", s.Notify == nil}, {"Chat", s.Chat == nil},
		{"Downloads", s.Downloads == nil}, {"Social", s.Social == nil}, {"Newsletter", s.Newsletter == nil},
	} {
		if r.missing {
			missing = append(missing, r.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("server: required services missing: %s", strings.Join(missing, ", "))
	}
	return nil
}

// Hub is the use-case layer over these services, logging to log and
// building letters' links on publicURL (server.public_url): the HTTP
// layer's, and the CLI's acting for the owner.
func (s *Services) Hub(publicURL string, log *slog.Logger) *usecase.Hub {
	return &usecase.Hub{
		Auth:            s.Auth,
		Files:           s.Files,
		Shares:          s.Shares,
		Audit:           s.Audit,
		Log:             log,
		Events:          s.Events,
		Notify:          s.Notify,
		Chat:            s.Chat,
		Downloads:       s.Downloads,
		Blog:            s.Blog,
		Discuss:         s.Discuss,
		Social:          s.Social,
		Setup:           s.Setup,
		Mail:            s.Mail,
		PublicURL:       publicURL,
		Newsletter:      s.Newsletter,
		ConfirmNewEmail: s.ConfirmNewEmail,
		ContactMail:     s.ContactMail,
	}
}

// MaxHeaderBytes bounds a request's line and headers together: fasthttp reads
// them into a per-connection buffer of this size and, once it is full without
// the headers having ended, refuses the request with 431 and closes the
// connection, having read no more than this much of it. The request is never
// routed (Fiber only runs the app-wide middleware on an empty request to
// render the JSON error), so `Authorization: Bearer` + 1 MiB costs one
// buffer, never a token parse or a password hash. Fiber's default is
// 4 KiB; 8 KiB — nginx's and Apache's per-line default — leaves room for a
// reverse proxy's forwarding headers and for cookies that sibling apps set on
// a shared parent domain, while the buffer, which stays attached to every open
// keep-alive connection (StreamRequestBody), costs only 4 KiB more each. Go's
// net/http would accept 1 MiB of headers; at that size an idle-connection
// flood would hold a MiB per socket.
const MaxHeaderBytes = 8 << 10

// Options configure New.
type Options struct {
	Config   config.Config
	Services *Services
	// Site is the built SPA (site/dist); nil or empty serves a notice.
	Site   fs.FS
	Logger *slog.Logger
	// Cores are the built-in emulator cores (site/cores/dist); nil serves only
	// the ones in config emulator.extra_cores_dir.
	Cores fs.FS
}

// Server holds what handlers need; its methods are the handlers.
type Server struct {
	cfg     config.Config
	svc     *Services
	log     *slog.Logger
	trusted []netip.Prefix
	hsts    bool
	site    *siteAssets
	// streaming holds the paths that read their request body as a stream,
	// streamingPrefixes the path prefixes that do.
	streaming         map[string]bool
	streamingPrefixes []string
	// streamingMatch are paths with parameters that do.
	streamingMatch []func(path string) bool
	// uploads admits uploads (rates, concurrency, minimum pace).
	uploads *uploadLimits
	// zips caps the zips being streamed at once (keyed by account, or by
	// client network for guests).
	zips *ratelimit.Slots[string]
	// metrics feeds GET /metrics; nil when metrics.enabled is off.
	metrics *metrics
	// hub is the use-case layer over the services.
	hub *usecase.Hub
	// fileList and specFileList cache the encoded plain file list of the
	// canonical path and of the spec's (listFiles).
	fileList, specFileList encodedList
	// portfolio is the portfolio as served (routes_profile.go); an admin's
	// edit swaps it.
	portfolio portfolioState
}

// New builds the Fiber app with every route mounted: the app-wide
// middleware, each product area's routes, then the catch-alls (the API's
// JSON 404 and the SPA).
func New(o Options) (*fiber.App, error) {
	s, err := newServer(o)
	if err != nil {
		return nil, err
	}
	app := s.newApp()
	if err := s.mountAreas(app, o.Cores); err != nil {
		return nil, err
	}
	s.mountFallbacks(app)
	return app, nil
}

func newServer(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if err := o.Services.check(); err != nil {
		return nil, err
	}
	s := &Server{cfg: o.Config, svc: o.Services, log: o.Logger, streaming: map[string]bool{},
		uploads: newUploadLimits(o.Config.Files),
		zips:    ratelimit.NewSlots[string](o.Config.Files.ZipMaxConcurrent, o.Config.Files.ZipMaxConcurrentPerClient)}
	s.hub = o.Services.Hub(o.Config.Server.PublicURL, o.Logger)
	s.hub.SiteName = s.ownSiteName
	s.hub.Events.WatchPresence(s.hub.PresenceChanged)
	for _, p := range o.Config.Server.TrustedProxies {
		pfx, err := config.ParseProxy(p)
		if err != nil {
			return nil, err
		}
		s.trusted = append(s.trusted, pfx)
	}
	if u, err := url.Parse(o.Config.Server.PublicURL); err == nil && u.Scheme == "https" {
		s.hsts = true
	}
	site, err := loadSiteAssets(o.Site)
	if err != nil {
		return nil, fmt.Errorf("load site: %w", err)
	}
	s.site = site
	if o.Config.Metrics.Enabled {
		s.metrics = newMetrics(s)
	}
	return s, nil
}

// newApp is the Fiber app with the middleware every request passes.
func (s *Server) newApp() *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:      "devhub",
		ErrorHandler: s.errorHandler,
		ReadTimeout:  s.cfg.Server.ReadTimeout,
		WriteTimeout: s.cfg.Server.WriteTimeout,
		IdleTimeout:  s.cfg.Server.IdleTimeout,
		// Bodies up to BodyLimit are read before the handler runs; larger ones
		// are streamed, so uploads can go straight to disk. limitBody below
		// enforces the limit for every route that does not stream on purpose.
		BodyLimit:                    s.cfg.Server.BodyLimit,
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		ReadBufferSize:               MaxHeaderBytes,
	})
	// A request that cannot be parsed is answered with fasthttp's error
	// text, which by default quotes the raw request back (its cookies and
	// Authorization header too, and whatever else sat in the buffer); the
	// secure form names only the fault.
	app.Server().SecureErrorLogMessage = true

	// First, so that every later log line of the request can name it: the
	// id a proxy in front sent (X-Request-Id, when well-formed) or a new one,
	// and the answer carries it back.
	app.Use(requestid.New())
	// A body the handlers left unread never reaches the next request's
	// parser (body.go); outside the recoverer, so a panic's answer too.
	app.Use(s.guardBody)
	app.Use(recoverer.New(recoverer.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c fiber.Ctx, e any) {
			s.logFor(c).Error("panic in handler", slog.String("method", c.Method()), slog.String("path", c.Path()),
				slog.Any("panic", e), slog.String("stack", string(debug.Stack())))
		},
	}))
	app.Use(s.requestLog)
	app.Use(s.securityHeaders)
	// Who may keep each answer: one policy for every route (cachepolicy.go).
	app.Use(s.cachePolicy)

	app.Get("/healthz", func(c fiber.Ctx) error { return c.SendString("ok") })
	s.registerReady(app)
	// Every route under /api is read within the body limit and answers
	// compressed JSON when it is large enough.
	app.Use("/api", s.limitBody(s.cfg.Server.BodyLimit), compressJSON)
	return app
}

// mountAreas mounts each product area's routes.
func (s *Server) mountAreas(app *fiber.App, cores fs.FS) error {
	api := app.Group("/api")
	// Each product area mounts its routes here (routes_<area>.go). Root-level
	// routes (feed, /romserv, /cores, emulator page) are registered on app,
	// before the catch-alls (mountFallbacks).
	s.mountDocs(api)
	s.mountSite(api)
	pa, err := newProfileAssets(s.svc.Profile)
	if err != nil {
		return err
	}
	s.mountProfile(api, pa)
	if err := s.mountRoms(app, cores); err != nil {
		return err
	}
	s.mountAuth(api)
	s.mountAvatars(api)
	s.mountSetup(api)
	s.mountPasswordReset(app, api)
	s.mountVerifyEmail(api)
	s.mountActivity(api)
	s.mountIP(api)
	s.mountFiles(api)
	if err := s.mountTus(app, api); err != nil {
		return err
	}
	s.mountQuota(api)
	s.mountGames(api)
	s.mountShares(app, api)
	s.mountBlog(app, api)
	s.mountNewsletter(app, api)
	s.mountDiscuss(app, api)
	s.mountAudit(api)
	s.mountLive(app, api)
	s.mountDownloads(app, api)
	s.mountSocial(api)
	s.mountMetrics(app)
	s.mountSEO(app)
	s.mountPlainIP(app)
	return nil
}

// mountFallbacks answers what no route did: anything under /api is a JSON
// 404, never the SPA; everything else is the SPA.
func (s *Server) mountFallbacks(app *fiber.App) {
	app.Use("/api", func(c fiber.Ctx) error {
		if retried, err := retryHeadAsGet(c); retried {
			return err
		}
		return NewError(fiber.StatusNotFound, "no such API endpoint: "+c.Method()+" "+c.Path())
	})
	app.Use(s.serveSite)
}

const headRetryKey = "devhub.headRetry"

// retryHeadAsGet routes a HEAD request again as GET. Fiber adds its automatic
// HEAD routes after every handler registered with Use, so without this the
// catch-alls would answer HEAD for any GET route with 404 (API) or the SPA
// page (/romserv, /cores, /feed.xml). The request on the wire is still HEAD,
// so fasthttp sends the GET handler's headers without its body.
func retryHeadAsGet(c fiber.Ctx) (bool, error) {
	if c.Method() != fiber.MethodHead || c.Locals(headRetryKey) != nil {
		return false, nil
	}
	c.Locals(headRetryKey, true)
	c.Method(fiber.MethodGet)
	return true, c.RestartRouting()
}

// isUnderPrefix reports whether path is prefix itself or below it.
func isUnderPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
