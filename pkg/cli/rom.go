package cli

import "github.com/spf13/cobra"

func newRomCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:          "rom",
		Short:        "Manage the ROM library of the games page",
		Example:      "  devhub rom list",
		SilenceUsage: true,
	}
}
