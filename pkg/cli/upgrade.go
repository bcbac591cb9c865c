package cli

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cloudflare/tableflip"
)

// Zero-downtime upgrades: on SIGHUP serve starts the binary at its own
// path again (the new version once it was replaced there), handing it the
// listening sockets (cloudflare/tableflip). The new process takes them
// and says it is ready; the old one stops accepting, lets the requests in
// flight finish (shutdownGrace), releases the store and exits, and the new
// one opens the store (it waits for the lock) and serves. Connections that
// arrive meanwhile wait in the sockets' queue: none is refused.

// upgradeStoreWait is how long a new process waits for the old one to let
// the store go: the old one's drain, and some.
const upgradeStoreWait = shutdownGrace + 20*time.Second

// processUpgrader is this process's one tableflip.Upgrader (tableflip
// allows one per process); only the first serve of a process gets it (a
// test runs serve many times; the binary runs it once).
var (
	upgraderOnce sync.Once
	upgrader     *tableflip.Upgrader
	upgraderErr  error
	upgraderUsed atomic.Bool
)

func takeUpgrader(pidFile string) (*tableflip.Upgrader, error) {
	if upgraderUsed.Swap(true) {
		return nil, nil
	}
	upgraderOnce.Do(func() {
		// tableflip starts os.Args[0]: a name found on PATH is made a full
		// path now, before the binary there is replaced.
		if !strings.Contains(os.Args[0], "/") {
			if p, err := exec.LookPath(os.Args[0]); err == nil {
				if abs, err := filepath.Abs(p); err == nil {
					os.Args[0] = abs
				}
			}
		}
		upgrader, upgraderErr = tableflip.New(tableflip.Options{UpgradeTimeout: time.Minute, PIDFile: pidFile})
	})
	if errors.Is(upgraderErr, tableflip.ErrNotSupported) {
		return nil, nil
	}
	return upgrader, upgraderErr
}

// upgradeOnHangup starts an upgrade on every SIGHUP until ctx ends.
func upgradeOnHangup(ctx context.Context, upg *tableflip.Upgrader, log *slog.Logger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				log.Info("SIGHUP: starting the new binary on the same sockets")
				if err := upg.Upgrade(); err != nil {
					log.Error("upgrade failed; this process keeps serving", slog.Any("err", err))
					continue
				}
				log.Info("the new process is ready; this one finishes its requests and exits")
			}
		}
	}()
}
