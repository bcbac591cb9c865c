package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/server"
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
runs. SIGINT or SIGTERM shut it down gracefully.`,
		Example: `  devhub serve
  devhub serve --addr 127.0.0.1:9000
  DEVHUB_SERVER_ADDR=:80 devhub serve --config /etc/devhub.yaml`,
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

func serve(ctx context.Context, env *Env) error {
	cfg, log := env.cfg, env.log
	if cfg.Log.Format == "json" {
		log = slog.New(slog.NewJSONHandler(env.Err, &slog.HandlerOptions{Level: slog.LevelInfo}))
		env.log = log
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
	// A server already answering on the socket owns this data directory.
	if c, err := net.DialTimeout("unix", cfg.SocketPath(), 500*time.Millisecond); err == nil {
		c.Close()
		return fmt.Errorf("another devhub server is already running on %s", cfg.Storage.DataDir)
	}
	if err := env.openLocal(ctx); err != nil {
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
	svc.profile = prof
	if err := svc.startup(ctx); err != nil {
		return err
	}
	if err := svc.startBackupMail(ctx); err != nil {
		return err
	}

	app, err := server.New(server.Options{Config: cfg, Services: svc.httpServices(), Site: site.FS(), Cores: cores.FS(), Logger: log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Server.Addr, err)
	}
	sock, err := listenOwnerSocket(cfg, svc, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer sock.Close()

	if !site.Embedded {
		log.Warn("this binary was built without the web interface; run `make build` for the full site")
	}
	log.Info("devhub listening", slog.String("addr", ln.Addr().String()), slog.String("data_dir", cfg.Storage.DataDir),
		slog.String("owner_socket", cfg.SocketPath()))

	errc := make(chan error, 1)
	go func() {
		errc <- app.Listener(server.LingerListener(ln), fiber.ListenConfig{DisableStartupMessage: true})
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	if err := app.ShutdownWithTimeout(shutdownGrace); err != nil {
		log.Warn("shutdown", slog.Any("err", err))
	}
	return nil
}
