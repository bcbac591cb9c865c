package cli

import (
	"context"
	"log/slog"
	"path/filepath"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/storage"
)

// downloadsDir is where the download catalogue keeps its bytes on the
// local backend: a directory of its own inside the uploads directory (the
// file cloud lists and sweeps only its own names there).
func downloadsDir(cfg config.Storage) string { return filepath.Join(cfg.UploadsDir, "downloads") }

// openDownloads opens the download catalogue on the backend
// storage.backend names: the S3 bucket (keys of its own, which the file
// cloud never lists) or downloadsDir.
func (s *services) openDownloads(ctx context.Context) error {
	var be storage.Store
	cfg := s.cfg.Storage
	if cfg.Backend == storage.S3 {
		s3, err := storage.NewS3(ctx, storage.S3Config{Endpoint: cfg.S3.Endpoint, Bucket: cfg.S3.Bucket, Region: cfg.S3.Region,
			PathStyle: cfg.S3.PathStyle, AccessKey: cfg.S3.AccessKey, SecretKey: cfg.S3.SecretKey}, downloads.IsKey)
		if err != nil {
			return err
		}
		be = s3
	} else {
		local, err := storage.NewLocal(downloadsDir(cfg), downloads.IsKey)
		if err != nil {
			return err
		}
		s.downloadsLocal, be = local, local
	}
	svc, err := downloads.New(s.Store, be, s.log)
	if err != nil {
		return err
	}
	s.Downloads = svc
	return nil
}

// downloadsStartup removes what interrupted writes left in the
// catalogue's storage and imports the example entries into a catalogue
// that never had any.
func (s *services) downloadsStartup(ctx context.Context) {
	if n, err := s.Downloads.Backend().SweepIncomplete(ctx); err != nil {
		s.log.Warn("downloads: sweep of interrupted writes", slog.Any("err", err))
	} else if n > 0 {
		s.log.Info("removed leftovers of interrupted download uploads", slog.Int("files", n))
	}
	if dir := s.cfg.Storage.ContentDir; dir != "" {
		n, err := s.Downloads.SeedFrom(ctx, dir, s.cfg.Files.MaxUploadBytes)
		if err != nil {
			s.log.Error("could not import the example downloads", slog.String("dir", dir), slog.Any("err", err))
		} else if n > 0 {
			s.log.Info("imported the example downloads", slog.Int("entries", n))
		}
	}
}
