package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/server"
	"github.com/devhub/devhub/pkg/webtls"
)

// listenFunc opens a listening socket (net.Listen, or one inherited
// across a binary upgrade).
type listenFunc func(network, addr string) (net.Listener, error)

// siteListeners are what serve answers on: the site itself, and with TLS
// on the HTTP/2 side of the https listener and the plain-HTTP port.
type siteListeners struct {
	site    net.Listener // server.addr: plain HTTP, or HTTP/1.1 over TLS
	tls     *webtls.Listener
	certs   *webtls.Manager
	httpSrv *http.Server
	httpLn  net.Listener
}

// openSite opens server.addr (and with TLS on server.http_addr) and, in
// acme mode, starts obtaining and renewing certificates.
func openSite(ctx context.Context, cfg config.Config, listen listenFunc, log *slog.Logger) (*siteListeners, error) {
	ln, err := listen("tcp", cfg.Server.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Server.Addr, err)
	}
	s := &siteListeners{site: ln}
	if !cfg.Server.TLSOn() {
		return s, nil
	}
	certs, err := webtls.New(webtls.Options{Server: cfg.Server, DataDir: cfg.Storage.DataDir, Logger: log})
	if err != nil {
		ln.Close()
		return nil, err
	}
	httpLn, err := listen("tcp", cfg.Server.HTTPAddr)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Server.HTTPAddr, err)
	}
	_, httpsPort, _ := net.SplitHostPort(ln.Addr().String())
	s.certs, s.httpLn = certs, httpLn
	s.httpSrv = &http.Server{Handler: certs.HTTPHandler(httpsPort), ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	s.tls = webtls.NewListener(ln, certs.TLSConfig())
	s.site = s.tls
	if err := certs.Start(ctx); err != nil {
		s.tls.Close()
		httpLn.Close()
		return nil, fmt.Errorf("certificates: %w", err)
	}
	return s, nil
}

// close releases the listeners of a server that did not start.
func (s *siteListeners) close() {
	s.site.Close()
	if s.tls != nil {
		s.httpLn.Close()
		s.certs.Stop()
	}
}

// serve runs app on the listeners until ctx ends, exit closes (an upgrade
// took over) or a listener fails, then runs before (which ends what would
// hold the shutdown, such as open event streams) and shuts down gracefully
// within grace.
func (s *siteListeners) serve(ctx context.Context, exit <-chan struct{}, app *fiber.App, before func(), grace time.Duration, log *slog.Logger) error {
	errc := make(chan error, 3)
	lc := fiber.ListenConfig{DisableStartupMessage: true}
	if s.tls != nil {
		// HTTP/2 requests reach the same fasthttp server, once app.Listener
		// has prepared it.
		backend := s.tls.Backend()
		lc.BeforeServeFunc = func(app *fiber.App) error {
			go func() {
				if err := app.Server().Serve(backend); err != nil && !errors.Is(err, net.ErrClosed) {
					errc <- err
				}
			}()
			return nil
		}
	}
	go func() { errc <- app.Listener(server.LingerListener(s.site), lc) }()
	if s.tls != nil {
		go func() {
			if err := s.httpSrv.Serve(s.httpLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
	}
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
	case <-exit:
	}
	log.Info("shutting down")
	before()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if s.tls != nil {
		_ = s.httpSrv.Shutdown(sctx)
		_ = s.tls.Shutdown(sctx)
		s.certs.Stop()
	}
	if serr := app.ShutdownWithContext(sctx); serr != nil {
		log.Warn("shutdown", slog.Any("err", serr))
	}
	return err
}
