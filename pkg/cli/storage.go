package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/storage"
)

func newStorageCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "storage",
		Short: "Manage where the file cloud keeps its bytes",
		Long: `storage moves the file cloud between its backends: the local uploads
directory and an S3-compatible object store (storage.backend, storage.s3).`,
		Example:      `  devhub storage migrate --to s3`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newStorageMigrateCmd(env))
	return cmd
}

func newStorageMigrateCmd(env *Env) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "migrate --to local|s3",
		Short: "Move every file into one backend, verified by sha256",
		Long: `migrate copies every file that is not yet in the target backend into it,
checks the copy against the file's sha256, switches the file's record to it
and only then deletes the old bytes — one file at a time, so an interrupted
run loses nothing and running it again goes on where it stopped. Both
backends must be configured (storage.s3.* and the DEVHUB_STORAGE_S3_* keys
for S3). Set storage.backend to the same target so new uploads go there too.
A file whose bytes do not match its sha256 is not moved and is reported;
the exit status is then non-zero.`,
		Example: `  DEVHUB_STORAGE_S3_ACCESS_KEY=… DEVHUB_STORAGE_S3_SECRET_KEY=… devhub storage migrate --to s3
  devhub storage migrate --to local`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if to != storage.Local && to != storage.S3 {
				return fmt.Errorf("--to must be local or s3, got %q", to)
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			var bytes int64
			moved, err := svc.Files.Migrate(cmd.Context(), to, func(f files.File, err error) {
				if err != nil {
					fmt.Fprintf(env.Err, "file %d (%s): %v\n", f.ID, f.OriginalName, err)
					return
				}
				bytes += f.Size
				env.Printf("moved file %d (%s, %s) to %s\n", f.ID, f.OriginalName, text.Bytes(f.Size), to)
			})
			env.Printf("%d file(s), %s moved to %s\n", moved, text.Bytes(bytes), to)
			return err
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "the backend to move every file into: local or s3")
	return needsStore(cmd)
}
