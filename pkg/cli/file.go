package cli

import "github.com/spf13/cobra"

func newFileCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:          "file",
		Short:        "Manage files in the file cloud",
		Example:      "  devhub file list",
		SilenceUsage: true,
	}
}
