package cli

import "github.com/spf13/cobra"

func newUserCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:          "user",
		Short:        "Manage user accounts",
		Example:      "  devhub user list",
		SilenceUsage: true,
	}
}
