package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/files/resumable"
	"github.com/devhub/devhub/pkg/gamecontrols"
	"github.com/devhub/devhub/pkg/gameshelf"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/server"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// storeOpenTimeout bounds how long a command waits for the bbolt lock before
// it reports that the store is in use, instead of hanging.
const storeOpenTimeout = 2 * time.Second

// Env is what every command runs with: its standard streams, the resolved
// config and the domain services. The same command code runs in two places:
// in the `devhub` process the owner started (streams are the terminal's), and
// inside a running `devhub serve` that received the command on its owner
// socket (streams are the socket, services are the server's own).
type Env struct {
	In       io.Reader
	Out, Err io.Writer
	// Cwd is the caller's working directory; relative paths in arguments are
	// resolved against it (the server process may run elsewhere).
	Cwd string
	// InTTY / OutTTY say whether the caller's stdin/stdout are terminals
	// (password prompts, progress bars).
	InTTY, OutTTY bool
	// Prompt reads a password without echo; nil asks on the caller's
	// terminal (terminalPassword). Tests answer with a function.
	Prompt func(prompt string) (string, error)
	// Site is the built front end whose icon set checks content/profile.yaml; nil uses the one
	// embedded in the binary. Tests give a small one.
	Site fs.FS

	cfg    config.Config
	loaded bool
	// remote is true when the command runs inside the server for a caller
	// on the owner socket.
	remote bool
	svc    *services
	// closeLocal releases a store this process opened itself.
	closeLocal func()
	log        *slog.Logger
	// storeWait, when set, is how long openLocal waits for the store's
	// lock (an upgraded server waits for its predecessor).
	storeWait time.Duration
	// pidFile is serve --pid-file.
	pidFile string
}

// Abs resolves a path argument against the caller's working directory.
func (e *Env) Abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.Cwd, p)
}

// Services returns the domain services: the server's own when running on
// its behalf, else the ones opened on the local store by the root command.
func (e *Env) Services() (*services, error) {
	if e.svc == nil {
		return nil, errors.New("internal: command did not declare that it needs the store")
	}
	return e.svc, nil
}

// PrintJSON writes v as indented JSON on stdout (the --json output).
func (e *Env) PrintJSON(v any) error {
	enc := json.NewEncoder(e.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Printf writes human output on stdout.
func (e *Env) Printf(format string, a ...any) { fmt.Fprintf(e.Out, format, a...) }

// openLocal opens the store in this process and builds the services on it.
func (e *Env) openLocal(ctx context.Context) error {
	wait := storeOpenTimeout
	if e.storeWait > 0 {
		wait = e.storeWait
	}
	st, err := store.Open(e.cfg.DBPath(), wait)
	if err != nil {
		return err
	}
	svc, err := newServices(ctx, e.cfg, st, e.log)
	if err != nil {
		st.Close()
		return err
	}
	e.svc = svc
	e.closeLocal = func() { svc.Close() }
	return nil
}

// services are the domain services of one open store: the HTTP layer's
// server.Services themselves, built once here (each area adds its service
// there and builds it in newServices) and handed to server.New as they are,
// with what only the CLI needs beside them.
type services struct {
	*server.Services
	cfg config.Config
	log *slog.Logger
	// hub is the use-case layer over these services, acting for the owner.
	hub *usecase.Hub
	// downloadsLocal is the download catalogue's directory when its bytes
	// are kept on disk (closed with the services).
	downloadsLocal *storage.LocalStore
}

func newServices(ctx context.Context, cfg config.Config, st *store.Store, log *slog.Logger) (*services, error) {
	s := &services{cfg: cfg, log: log, Services: &server.Services{Store: st, TusDir: resumable.Dir(cfg.Storage.UploadsDir),
		Reserve: freespace.New(cfg.Storage.MinFreeBytes, cfg.Storage.DataDir, cfg.Storage.UploadsDir)}}
	romSvc, err := roms.New(st, cfg.Storage.RomsDir)
	if err != nil {
		return nil, err
	}
	romSvc.UseReserve(s.Reserve)
	s.Roms = romSvc
	authCfg := cfg.Auth
	if !cfg.Mail.Enabled() || cfg.Server.PublicURL == "" {
		// No mail can carry the links: nothing to verify (serve refuses
		// "required" in this case; the other commands run as with "off").
		authCfg.VerifyEmail = auth.VerifyOff
	}
	authSvc, err := auth.New(st, authCfg)
	if err != nil {
		return nil, err
	}
	// The middleware checks tokens with the accounts service.
	s.Auth, s.Authenticate = authSvc, authSvc.Authenticate
	fsvc, err := files.New(st, cfg.Storage.UploadsDir, cfg.Files.MaxUploadBytes, log)
	if err != nil {
		return nil, err
	}
	fsvc.UseReserve(s.Reserve)
	s.Files = fsvc
	if err := useStorage(ctx, cfg.Storage, fsvc); err != nil {
		fsvc.Close()
		return nil, err
	}
	isAdmin := func(id uint64) bool {
		u, err := authSvc.UserByID(id)
		return err == nil && u.Role == auth.RoleAdmin
	}
	if s.Quota, err = quota.New(st, quota.Amount{Bytes: cfg.Files.QuotaBytes, Files: cfg.Files.QuotaFiles}, isAdmin); err != nil {
		return nil, err
	}
	fsvc.UseQuota(s.Quota)
	if s.Shares, err = shares.New(st, authSvc, nil); err != nil {
		return nil, err
	}
	act, err := activity.New(st, activity.Options{MaxEvents: cfg.Activity.MaxEvents, MaxBytes: cfg.Activity.MaxBytes,
		RatePerMinute: cfg.Activity.RatePerMinute, GlobalRatePerMinute: cfg.Activity.GlobalRatePerMinute})
	if err != nil {
		return nil, err
	}
	geo, err := geoip.OpenSet(cfg.GeoIP.Database, cfg.GeoIP.CityDatabase, cfg.GeoIP.ASNDatabase)
	if err != nil {
		return nil, err
	}
	s.Activity, s.GeoIP = act, geo
	if s.GameStates, err = gamestates.New(filepath.Join(cfg.Storage.DataDir, "gamestates"), cfg.Emulator.MaxStateBytes); err != nil {
		return nil, err
	}
	s.GameStates.UseQuota(s.Quota)
	s.GameStates.UseReserve(s.Reserve)
	if s.Shelf, err = gameshelf.New(st); err != nil {
		return nil, err
	}
	if s.Controls, err = gamecontrols.New(st); err != nil {
		return nil, err
	}
	if s.Blog, err = blog.New(st); err != nil {
		return nil, err
	}
	if s.Audit, err = audit.New(st, 0, nil); err != nil {
		return nil, err
	}
	if s.Social, err = social.New(st, social.Options{FriendsOnly: cfg.Messages.From == "friends", MaxLength: cfg.Messages.MaxLength,
		PerMinute: cfg.Messages.PerMinute, ContactPerHour: cfg.Contact.PerHour, ContactMaxLength: cfg.Contact.MaxLength,
		PowMaxNumber: cfg.Contact.PowMaxNumber}); err != nil {
		return nil, err
	}
	s.Events = events.NewHub(events.Options{Buffer: cfg.Events.Buffer, MaxStreamsPerUser: cfg.Events.MaxStreamsPerUser,
		MaxStreams: cfg.Events.MaxStreams, Log: log})
	if s.Notify, err = notify.New(st, s.Events); err != nil {
		return nil, err
	}
	if s.Chat, err = chat.New(st, chat.Options{MaxMessages: cfg.Chat.MaxMessages, MaxBytes: cfg.Chat.MaxBytes,
		MaxLength: cfg.Chat.MaxLength, RatePerMinute: cfg.Chat.RatePerMinute}); err != nil {
		return nil, err
	}
	if s.Discuss, err = discuss.New(st, discussOptions(cfg)); err != nil {
		return nil, err
	}
	if err := s.openDownloads(ctx); err != nil {
		return nil, err
	}
	if err := s.openMail(); err != nil {
		return nil, err
	}
	if s.Newsletter, err = newsletter.New(st); err != nil {
		return nil, err
	}
	s.hub = s.Hub(cfg.Server.PublicURL, log)
	return s, nil
}

// ownerActor names the owner in the audit log when a CLI command acts.
const ownerActor = usecase.OwnerName

// record writes an audit event for a CLI command; a failure to write it is
// logged, never the command's failure (the action itself succeeded, so a
// Ctrl-C after it does not stop the record either).
func (s *services) record(ctx context.Context, ev audit.Event) {
	if ev.Actor == "" {
		ev.Actor = ownerActor
	}
	if err := s.Audit.Record(context.WithoutCancel(ctx), ev); err != nil {
		s.log.Warn("audit log", slog.String("type", ev.Type), slog.Any("err", err))
	}
}

// discussOptions are the limits of comments and the forum from the config
// (validated there).
func discussOptions(cfg config.Config) discuss.Options {
	limits := func(d config.Discussion) discuss.Limits {
		mode, _ := discuss.ParseMode(d.Moderation)
		return discuss.Limits{Moderation: mode, MaxBytes: d.MaxBytes, MaxLinks: d.MaxLinks}
	}
	m := cfg.Moderation
	return discuss.Options{Comments: limits(cfg.Comments), Forum: limits(cfg.Forum), RatePerUser: m.RatePerUser,
		RatePerNetwork: m.RatePerNetwork, NewAccountAge: m.NewAccountAge, NewAccountMaxLinks: m.NewAccountMaxLinks}
}

// dropUploadsBesideStore deletes the unfinished resumable uploads versions
// before the staging moved to the uploads' disk kept beside the store, in
// <data_dir>/tus (resumable.DropLegacy).
func (s *services) dropUploadsBesideStore() {
	resumable.DropLegacy(filepath.Join(s.cfg.Storage.DataDir, "tus"), s.log)
}

// Close releases the store.
func (s *services) Close() error {
	s.GeoIP.Close()
	if s.Thumbs != nil {
		s.Thumbs.Close()
	}
	s.Files.Close()
	if s.downloadsLocal != nil {
		s.downloadsLocal.Close()
	}
	return s.Store.Close()
}

// startup runs the once-per-serve work of each area (importing content/,
// scanning roms/, sweeping temp uploads) before the server accepts requests.
func (s *services) startup(ctx context.Context) error {
	if err := s.Store.Check(); err != nil {
		return fmt.Errorf("%w; restore a backup (devhub backup) or move the file aside", err)
	}
	if err := s.romsStartup(ctx); err != nil {
		return err
	}
	s.authStartup(ctx)
	s.dropUploadsBesideStore()
	if n, err := s.Files.SweepTemps(ctx); err != nil {
		return err
	} else if n > 0 {
		s.log.Info("removed leftovers of interrupted uploads", slog.Int("files", n))
	}
	if n, err := s.GameStates.SweepTemps(ctx); err != nil {
		return err
	} else if n > 0 {
		s.log.Info("removed leftovers of interrupted save states", slog.Int("files", n))
	}
	if err := s.thumbsStartup(ctx); err != nil {
		return err
	}
	s.seedBlog(ctx)
	s.downloadsStartup(ctx)
	if s.GeoIP.Available() {
		for _, db := range s.GeoIP.Databases() {
			info := db.Info()
			s.log.Info("geoip database", slog.String("source", info.Source), slog.String("type", info.DatabaseType),
				slog.Time("built", info.BuildTime))
		}
	} else {
		s.log.Warn("no geoip database: /api/ip answers country Unknown; build with `make build` or set geoip.database")
	}
	return nil
}

// useStorage connects the S3 backend when one is configured (so its files
// stay readable, and migrate can reach it, whatever storage.backend says)
// and sends new uploads to storage.backend.
func useStorage(ctx context.Context, cfg config.Storage, fsvc *files.Service) error {
	if cfg.S3.Endpoint != "" && cfg.S3.Bucket != "" {
		s3, err := storage.NewS3(ctx, storage.S3Config{Endpoint: cfg.S3.Endpoint, Bucket: cfg.S3.Bucket, Region: cfg.S3.Region,
			PathStyle: cfg.S3.PathStyle, AccessKey: cfg.S3.AccessKey, SecretKey: cfg.S3.SecretKey}, files.IsStoredName)
		if err != nil {
			return err
		}
		fsvc.AddBackend(s3)
	}
	return fsvc.UseBackend(cfg.Backend)
}
