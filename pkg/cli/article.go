package cli

import "github.com/spf13/cobra"

func newArticleCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:          "article",
		Short:        "Manage blog articles",
		Example:      "  devhub article list",
		SilenceUsage: true,
	}
}
