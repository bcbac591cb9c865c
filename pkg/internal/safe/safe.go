// Package safe runs background work so that a panic in it is logged with
// its stack and ends only that piece of work, never the process: a bug in
// one owner-socket command, a scan or a cleanup must not take the site down.
package safe

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Go runs fn in a new goroutine; a panic in it is logged as what.
func Go(log *slog.Logger, what string, fn func()) {
	go Run(log, what, fn)
}

// Run runs fn in this goroutine and turns a panic in it into a log line
// (and returns normally).
func Run(log *slog.Logger, what string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("panic in background work", slog.String("what", what), slog.String("panic", fmt.Sprint(r)),
				slog.String("stack", string(debug.Stack())))
		}
	}()
	fn()
}
