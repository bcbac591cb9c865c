package cli

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/thumbs"
)

// thumbsDir is where the image thumbnails are kept: a cache under the data
// directory, on the local disk whatever stores the files (pkg/thumbs).
func thumbsDir(dataDir string) string { return filepath.Join(dataDir, "thumbs") }

// thumbSource is f as a thumbnail source, ok only for the image types
// thumbnails are made of.
func thumbSource(f files.File) (thumbs.Source, bool) {
	base, _, _ := strings.Cut(f.MimeType, ";")
	if !thumbs.SupportedTypes[strings.ToLower(strings.TrimSpace(base))] {
		return thumbs.Source{}, false
	}
	return thumbs.Source{ID: f.ID, Hash: f.SHA256}, true
}

// thumbsStartup starts the thumbnails of a serving process: every upload
// committed from now on (HTTP, tus, the CLI through the owner socket) gets
// its thumbnail in the background and every delete removes it; thumbnails
// of files deleted while no server ran are swept now, and those missing
// (files added by a CLI without a server, or before thumbnails existed)
// are made in the background, with a summary in the log.
func (s *services) thumbsStartup(ctx context.Context) error {
	open := func(id uint64) (io.ReadSeekCloser, error) {
		_, fh, err := s.Files.Open(id)
		if err != nil {
			return nil, err
		}
		return fh, nil
	}
	t, err := thumbs.New(thumbsDir(s.cfg.Storage.DataDir), open, thumbs.DefaultLimits(), s.log)
	if err != nil {
		return err
	}
	s.Thumbs = t
	all, err := s.Files.List()
	if err != nil {
		return err
	}
	var srcs []thumbs.Source
	for _, f := range all {
		if src, ok := thumbSource(f); ok {
			srcs = append(srcs, src)
		}
	}
	if n := t.Sweep(ctx, srcs); n > 0 {
		s.log.Info("removed thumbnails of deleted files", slog.Int("thumbnails", n))
	}
	s.Files.SetHooks(files.Hooks{
		Added: func(f files.File) {
			if src, ok := thumbSource(f); ok {
				t.Enqueue(src)
			}
		},
		Deleted: func(f files.File) {
			if src, ok := thumbSource(f); ok {
				t.Remove(src)
			}
		},
	})
	t.Start()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("thumbnails at start: panic recovered", slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			}
		}()
		started := time.Now()
		res := t.Backfill(ctx, srcs)
		refused := 0
		attrs := []any{slog.Int("images", len(srcs)), slog.Int("made", res.Made), slog.Int("existing", res.Existing)}
		for reason, n := range res.Refused {
			refused += n
			attrs = append(attrs, slog.Int("refused_"+strings.ReplaceAll(reason, " ", "_"), n))
		}
		attrs = append(attrs, slog.Int("refused", refused), slog.Duration("took", time.Since(started).Round(time.Millisecond)))
		s.log.Info("thumbnails checked", attrs...)
	}()
	return nil
}
