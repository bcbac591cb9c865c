package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/readiness"
	"github.com/devhub/devhub/pkg/server"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/site"
	"github.com/devhub/devhub/site/cores"
)

// shutdownGrace bounds how long in-flight requests may run after a signal.
const shutdownGrace = 10 * time.Second

func newServeCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the web server (and the owner socket the CLI uses meanwhile)",
		Long: `serve opens the store, starts the HTTP server on server.addr and listens on
<data_dir>/devhub.sock so that other devhub commands keep working while it
runs. SIGINT or SIGTERM shut it down gracefully. SIGHUP upgrades without
downtime: the binary at the same path is started on the same sockets, the
requests in flight finish, and the old process exits.

With server.tls acme (or --domain) it serves https with HTTP/2 on
server.addr (default :443) with certificates from an ACME CA, and on
server.http_addr (default :80) answers the HTTP-01 challenge and redirects
to https; server.tls files serves the owner's certificate and key.`,
		Example: `  devhub serve
  devhub serve --addr 127.0.0.1:9000
  DEVHUB_SERVER_ADDR=:80 devhub serve --config /etc/devhub.yaml
  devhub serve --domain example.org`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if env.remote {
				return errors.New("the server is already running")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, env)
		},
	}
	cmd.Flags().String("addr", "", "listen address (overrides server.addr)")
	cmd.Flags().StringVar(&env.pidFile, "pid-file", "", "write the serving process's PID here (it changes on an upgrade: SIGHUP)")
	cmd.Flags().StringSlice("domain", nil, "serve https for this domain with a certificate from Let's Encrypt (sets server.domains and server.tls acme)")
	return cmd
}

// defaultMemoryLimit is the Go runtime's soft memory limit for serve unless
// GOMEMLIMIT says otherwise. Each argon2id hash allocates 19 MiB that the
// runtime would otherwise keep after a sign-in; with the limit the heap is
// collected and returned to the OS, so a small server stays small (uploads
// and downloads stream and need almost nothing). It is soft: the server
// never fails for it, it only collects sooner.
const defaultMemoryLimit = 48 << 20

// defaultGCPercent is serve's GOGC unless the environment sets one. The
// heap a running server keeps is small (a few MiB; the part buffers of S3
// uploads live outside it), so collecting at +50% instead of Go's +100%
// costs little CPU and keeps the garbage a streaming upload leaves behind
// smaller: a 1 GiB upload to S3 peaked 2–3 MiB lower (make bench), inside
// a 64 MiB budget for the whole server.
const defaultGCPercent = 50

// streamsReleaseStep is how many event streams must have closed since the
// last look for serve to hand their memory back to the OS at once. Each open
// stream holds about 40 KiB (connection buffers, two goroutine stacks); when
// a crowd leaves, the runtime keeps those pages until its next forced
// collection and then returns them slowly, so the server stayed tens of MiB
// above its idle size for minutes. A full collection of a heap this small
// costs a few milliseconds, and it runs only after such a drop.
const streamsReleaseStep = 256

// releaseAfterStreams looks at the number of open event streams every
// period and calls release when at least streamsReleaseStep of them closed
// since the highest count it saw.
func releaseAfterStreams(ctx context.Context, open func() int, every time.Duration, release func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	high := open()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n := open()
		if high-n >= streamsReleaseStep {
			release()
			high = n
		}
		high = max(high, n)
	}
}

// setupURL is the first-run link: public_url's, else this server's own
// address (localhost for an unspecified host).
func setupURL(cfg config.Config, addr net.Addr, token string) string {
	base := strings.TrimRight(cfg.Server.PublicURL, "/")
	if base == "" {
		host, port, _ := net.SplitHostPort(addr.String())
		if ip := net.ParseIP(host); host == "" || ip == nil || ip.IsUnspecified() {
			host = "localhost"
		}
		scheme := "http"
		if cfg.Server.TLSOn() {
			scheme = "https"
		}
		base = scheme + "://" + net.JoinHostPort(host, port)
	}
	return base + "/setup?token=" + url.QueryEscape(token)
}

// readinessChecks are the checks of GET /readyz every server has: the
// store answers a write and a read, the storage of new uploads answers,
// the last scheduled backup did not fail and no mail waits too long (both
// fine when off). The certificate, when TLS is on, adds its own.
func readinessChecks(svc *services) *readiness.Registry {
	r := &readiness.Registry{}
	r.Add("store", func(context.Context) error { return svc.Store.Ping() })
	r.Add("storage", svc.Files.PingStorage)
	// Read when asked: the schedule and the queue start after this.
	r.Add("backup", func(context.Context) error { return svc.Backups.Health() })
	r.Add("mail", func(context.Context) error { return svc.Mail.Health() })
	return r
}

func serve(ctx context.Context, env *Env) error {
	cfg, log := env.cfg, env.log
	if err := checkVerifyEmail(cfg); err != nil {
		return err
	}
	if cfg.Log.Format == "json" {
		log = slog.New(slog.NewJSONHandler(env.Err, &slog.HandlerOptions{Level: slog.LevelInfo}))
		env.log = log
	}
	if cfg.Storage.S3.ServeDirect && cfg.Storage.Backend != storage.S3 {
		// Redirects to the store are for a site that keeps its files there.
		log.Warn("storage.s3.serve_direct is ignored: storage.backend is not s3, so downloads are served by devhub",
			slog.String("backend", cfg.Storage.Backend))
		cfg.Storage.S3.ServeDirect = false
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	// The portfolio file is checked first: a mistake in it stops serve with FILE:LINE: FIELD.
	prof, err := loadProfile(env.Abs(cfg.Storage.ContentDir), env.siteFS())
	if err != nil {
		return err
	}
	for _, dir := range []string{cfg.Storage.DataDir, cfg.Storage.UploadsDir} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	upg, err := takeUpgrader(env.pidFile)
	if err != nil {
		return fmt.Errorf("upgrades: %w", err)
	}
	listen := net.Listen
	if upg != nil {
		defer upg.Stop()
		listen = upg.Listen
	}
	upgraded := upg != nil && upg.HasParent()
	// A server already answering on the socket owns this data directory
	// (unless this process is its upgrade, started by it).
	if c, err := net.DialTimeout("unix", cfg.SocketPath(), 500*time.Millisecond); err == nil && !upgraded {
		c.Close()
		return fmt.Errorf("another devhub server is already running on %s", cfg.Storage.DataDir)
	} else if err == nil {
		c.Close()
	}
	// The sockets first: an upgrade takes them over from the old process
	// and tells it to finish; connections wait in their queue meanwhile.
	lns, err := openSite(ctx, cfg, listen, log)
	if err != nil {
		return err
	}
	if upg != nil {
		if err := upg.Ready(); err != nil {
			lns.close()
			return fmt.Errorf("upgrades: %w", err)
		}
		upgradeOnHangup(ctx, upg, log)
	}
	if upgraded {
		env.storeWait = upgradeStoreWait
		log.Info("upgraded: waiting for the previous process to finish its requests and release the store")
	}
	if err := env.openLocal(ctx); err != nil {
		lns.close()
		return err
	}
	// Release the store after the HTTP server and the socket have stopped
	// (deferred calls run in reverse order), so no request sees it closed.
	defer func() {
		if env.closeLocal != nil {
			env.closeLocal()
			env.closeLocal = nil
		}
	}()
	svc := env.svc
	svc.Profile = prof
	svc.PortfolioDir, svc.PortfolioIcons = env.Abs(cfg.Storage.ContentDir), siteIcons(env.siteFS())
	if err := svc.startup(ctx); err != nil {
		lns.close()
		return err
	}
	if err := svc.startBackupMail(ctx); err != nil {
		lns.close()
		return err
	}
	// Published articles are mailed to the newsletter's subscribers.
	svc.hub.StartNewsletter(ctx)
	go releaseAfterStreams(ctx, svc.Events.Streams, 5*time.Second, func() {
		// Twice: the first collection moves the connections' pooled
		// buffers (sync.Pool) aside, the second frees them.
		debug.FreeOSMemory()
		debug.FreeOSMemory()
	})

	svc.mailHooks()
	svc.Ready = readinessChecks(svc)
	svc.Setup = auth.NewOwnerSetup(svc.Auth)
	app, err := server.New(server.Options{Config: cfg, Services: svc.Services, Site: site.FS(), Cores: cores.FS(), Logger: log})
	if err != nil {
		lns.close()
		return err
	}
	if lns.certs != nil {
		svc.Ready.Add("certificate", func(context.Context) error { return lns.certs.Check(time.Now()) })
	}
	sock, err := listenOwnerSocket(cfg, svc, log)
	if err != nil {
		lns.close()
		return err
	}
	defer sock.Close()

	if !site.Embedded {
		log.Warn("this binary was built without the web interface; run `make build` for the full site")
	}
	log.Info("devhub listening", slog.String("addr", lns.site.Addr().String()), slog.String("tls", cfg.Server.TLS),
		slog.String("data_dir", cfg.Storage.DataDir), slog.String("owner_socket", cfg.SocketPath()))
	if token, ok, err := svc.Setup.Begin(); err != nil {
		log.Warn("first-run link", slog.Any("err", err))
	} else if ok {
		log.Warn("first run: open this link within an hour to create the owner's account (it works once)",
			slog.String("url", setupURL(cfg, lns.site.Addr(), token)))
	}
	var exit <-chan struct{}
	if upg != nil {
		exit = upg.Exit()
	}
	// Open event streams say goodbye and end first: they would hold the
	// shutdown for its whole grace otherwise.
	return lns.serve(ctx, exit, app, svc.Events.Close, shutdownGrace, log)
}
