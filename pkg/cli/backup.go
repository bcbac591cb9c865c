package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/backup"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

func newBackupCmd(env *Env) *cobra.Command {
	var to string
	cmd := needsStore(&cobra.Command{
		Use:   "backup [FILE]",
		Short: "Back up the store and the site's files (safe while serve runs)",
		Long: `backup writes one tar file: a consistent copy of the store (from one read
transaction, so the server keeps serving and writing meanwhile), every file
of the uploads (local storage), ROMs, save states and content directories,
and manifest.json with the SHA-256 of each. Files kept on S3 stay there.

With FILE the backup is written there; a FILE ending in .db gets the store's
copy alone. Without FILE it goes to backup.to (or --to): a directory or
s3://BUCKET on storage.s3's endpoint, named devhub-backup-<UTC time>.tar,
and the oldest beyond backup.keep are deleted. When a server is running the
backup is made by the server itself through the owner socket.`,
		Example: `  devhub backup /backups/devhub.tar
  devhub backup --to /backups
  devhub backup --to s3://devhub-backups
  devhub backup /backups/store-only.db`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			if len(args) == 1 && to != "" {
				return errors.New("give FILE or --to, not both")
			}
			if len(args) == 1 && strings.HasSuffix(args[0], ".db") {
				dst := env.Abs(args[0])
				n, err := svc.Store.BackupToFile(dst)
				if err != nil {
					return err
				}
				env.Printf("backup written to %s (%d bytes)\n", dst, n)
				return nil
			}
			if len(args) == 1 {
				dst := env.Abs(args[0])
				dest, err := storage.NewLocal(filepath.Dir(dst), func(k string) bool { return k == filepath.Base(dst) })
				if err != nil {
					return err
				}
				defer dest.Close()
				m, err := svc.writeBackup(ctx, dest, filepath.Base(dst))
				if err != nil {
					return err
				}
				env.Printf("backup written to %s (%d files, %s)\n", dst, len(m.Entries), text.Bytes(m.Bytes()))
				return nil
			}
			info, m, err := svc.backupToDest(ctx, env.destOf(to))
			if err != nil {
				return err
			}
			env.Printf("backup %s written (%d files, %s)\n", info.Name, len(m.Entries), text.Bytes(info.Size))
			return nil
		},
	})
	cmd.Flags().StringVar(&to, "to", "", "a directory or s3://BUCKET (overrides backup.to)")
	cmd.AddCommand(newBackupListCmd(env))
	return cmd
}

func newBackupListCmd(env *Env) *cobra.Command {
	var to string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the backups in backup.to (or --to), newest first",
		Example: `  devhub backup list
  devhub backup list --to s3://devhub-backups --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dest, err := openDest(cmd.Context(), env.cfg, env.destOf(to))
			if err != nil {
				return err
			}
			defer closeDest(dest)
			all, err := backup.List(cmd.Context(), dest)
			if err != nil {
				return err
			}
			if asJSON {
				if all == nil {
					all = []backup.Info{}
				}
				return env.PrintJSON(all)
			}
			for _, b := range all {
				env.Printf("%s  %s  %s\n", b.Name, b.CreatedAt.Format(time.RFC3339), text.Bytes(b.Size))
			}
			if len(all) == 0 {
				fmt.Fprintln(env.Err, "no backups yet")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "a directory or s3://BUCKET (overrides backup.to)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newRestoreCmd(env *Env) *cobra.Command {
	var from string
	cmd := &cobra.Command{
		Use:   "restore FILE|latest",
		Short: "Replace the store and the site's files with a backup (server stopped)",
		Long: `restore puts a backup made by "devhub backup" in place of the store and of
the uploads, ROMs, save states and content directories. The server must be
stopped. The whole backup is read and checked against its manifest first:
a file whose SHA-256 does not match, or a store of a newer schema than this
binary's, is refused and nothing changes. Then each directory and the store
are swapped in by rename; the previous data is kept aside until every swap
succeeded, then deleted.

FILE is a backup file, or the name of one in backup.to (or --from); latest
is the newest there.`,
		Example: `  devhub restore /backups/devhub.tar
  devhub restore latest
  devhub restore latest --from s3://devhub-backups`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if env.remote {
				return errors.New("stop the server before restoring a backup")
			}
			cfg, ctx := env.cfg, cmd.Context()
			if err := checkStopped(cfg); err != nil {
				return err
			}
			r, name, err := env.openBackup(ctx, args[0], from)
			if err != nil {
				return err
			}
			defer r.Close()
			m, err := backup.Restore(ctx, r, cfg.DBPath(), backupTrees(cfg))
			if err != nil {
				return err
			}
			env.Printf("restored %s (taken %s; %d files, %s)\n", name, m.CreatedAt.Format(time.RFC3339), len(m.Entries), text.Bytes(m.Bytes()))
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "a directory or s3://BUCKET to take the backup from (overrides backup.to)")
	return cmd
}

// checkStopped refuses a restore while a server answers on the owner
// socket or another process holds the store.
func checkStopped(cfg config.Config) error {
	if c, err := net.DialTimeout("unix", cfg.SocketPath(), helloTimeout); err == nil {
		c.Close()
		return errors.New("a devhub server is running on this data directory: stop it before restoring a backup")
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return nil
	}
	st, err := store.Open(cfg.DBPath(), storeOpenTimeout)
	if err != nil {
		if errors.Is(err, store.ErrInUse) {
			return errors.New("the store is in use by another process: stop it before restoring a backup")
		}
		return nil // a damaged store is what a restore replaces
	}
	return st.Close()
}

// openBackup opens arg: a file, or a backup's name (or latest) in the
// destination.
func (e *Env) openBackup(ctx context.Context, arg, from string) (io.ReadCloser, string, error) {
	if arg != "latest" && !backup.IsName(arg) || fileExists(e.Abs(arg)) {
		f, err := os.Open(e.Abs(arg))
		if err != nil {
			return nil, "", fmt.Errorf("open backup: %w", err)
		}
		return f, e.Abs(arg), nil
	}
	dest, err := openDest(ctx, e.cfg, e.destOf(from))
	if err != nil {
		return nil, "", err
	}
	defer closeDest(dest) // an open object outlives its local directory handle
	r, info, err := backup.Open(ctx, dest, arg)
	if err != nil {
		return nil, "", err
	}
	return r, info.Name, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// destOf is the destination a command uses: its flag, else backup.to;
// a directory is resolved against the caller's working directory.
func (e *Env) destOf(flag string) string {
	to := flag
	if to == "" {
		to = e.cfg.Backup.To
	}
	if to == "" || strings.HasPrefix(to, backup.S3Prefix) {
		return to
	}
	return e.Abs(to)
}

func openDest(ctx context.Context, cfg config.Config, to string) (storage.Store, error) {
	s3 := cfg.Storage.S3
	return backup.OpenDest(ctx, to, storage.S3Config{Endpoint: s3.Endpoint, Region: s3.Region, PathStyle: s3.PathStyle,
		AccessKey: s3.AccessKey, SecretKey: s3.SecretKey})
}

// closeDest releases a local destination's directory handle.
func closeDest(dest storage.Store) {
	if c, ok := dest.(io.Closer); ok {
		c.Close()
	}
}

// backupTrees are the site's directories a backup holds.
func backupTrees(cfg config.Config) []backup.Tree {
	return []backup.Tree{
		{Name: "uploads", Dir: cfg.Storage.UploadsDir},
		{Name: "roms", Dir: cfg.Storage.RomsDir},
		{Name: "gamestates", Dir: filepath.Join(cfg.Storage.DataDir, "gamestates")},
		{Name: "content", Dir: cfg.Storage.ContentDir},
	}
}

// writeBackup writes a backup of this instance into dest under name.
func (s *services) writeBackup(ctx context.Context, dest storage.Store, name string) (*backup.Manifest, error) {
	w, err := dest.Create(ctx, name, -1)
	if err != nil {
		return nil, err
	}
	m, err := backup.Write(ctx, w, s.backupSource())
	if err != nil {
		w.Abort()
		return nil, err
	}
	if err := w.Commit(); err != nil {
		return nil, err
	}
	s.record(ctx, audit.Event{Type: "backup.created", Target: name})
	return m, nil
}

func (s *services) backupSource() backup.Source {
	return backup.Source{Store: s.Store, Trees: backupTrees(s.cfg), Storage: s.cfg.Storage.Backend}
}

// backupToDest writes a new backup into the destination to and deletes
// the oldest beyond backup.keep.
func (s *services) backupToDest(ctx context.Context, to string) (backup.Info, *backup.Manifest, error) {
	dest, err := openDest(ctx, s.cfg, to)
	if err != nil {
		return backup.Info{}, nil, err
	}
	defer closeDest(dest)
	info, m, err := backup.ToDest(ctx, dest, s.backupSource())
	if err != nil {
		return backup.Info{}, nil, err
	}
	s.record(ctx, audit.Event{Type: "backup.created", Target: info.Name})
	gone, err := backup.Prune(ctx, dest, s.cfg.Backup.Keep)
	for _, g := range gone {
		s.log.Info("old backup deleted", slog.String("name", g))
	}
	if err != nil {
		return info, m, fmt.Errorf("backup %s written, but deleting older ones failed: %w", info.Name, err)
	}
	return info, m, nil
}
