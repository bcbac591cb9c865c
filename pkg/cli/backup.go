package cli

import (
	"github.com/spf13/cobra"
)

func newBackupCmd(env *Env) *cobra.Command {
	return needsStore(&cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the store to FILE (safe while serve runs)",
		Long: `backup copies the whole bbolt store from one read transaction, so the copy
is consistent even while the server keeps writing. When a server is running
the copy is made by the server itself through the owner socket.`,
		Example: `  devhub backup /backups/devhub-$(date +%F).db`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			dst := env.Abs(args[0])
			n, err := svc.store.BackupToFile(dst)
			if err != nil {
				return err
			}
			env.Printf("backup written to %s (%d bytes)\n", dst, n)
			return nil
		},
	})
}
