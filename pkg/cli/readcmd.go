package cli

import "github.com/spf13/cobra"

// readCmd completes cmd as a command without arguments that reads through
// the services and prints what it read: as text, or as JSON with --json
// (jsonHelp is that flag's help). read may check cmd's flags first.
func readCmd[T any](env *Env, cmd *cobra.Command, jsonHelp string, read func(cmd *cobra.Command, svc *services) (T, error), text func(v T) error) *cobra.Command {
	var asJSON bool
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		svc, err := env.Services()
		if err != nil {
			return err
		}
		v, err := read(cmd, svc)
		if err != nil {
			return err
		}
		if asJSON {
			return env.PrintJSON(v)
		}
		return text(v)
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, jsonHelp)
	return needsStore(cmd)
}
