// Package cli is devhub's command line: cobra commands for serving and for
// scripting users, articles, files and ROMs. It is the only user of viper,
// turns flags/env/config.yaml into a typed config.Config, and wires the
// domain services for both the HTTP server and the commands.
package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// annotationStore marks commands that need the store: they run inside a
// running server when one answers on the owner socket, else open it here.
const annotationStore = "devhub/store"

// needsStore marks cmd as touching the store.
func needsStore(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotationStore] = "true"
	return cmd
}

// errRemoteDone carries the exit code of a command that ran in the server.
type errRemoteDone struct{ code int }

func (e errRemoteDone) Error() string { return fmt.Sprintf("remote exit %d", e.code) }

// Execute runs the CLI for this process and returns the exit code.
func Execute() int {
	cwd, _ := os.Getwd()
	env := &Env{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Cwd: cwd,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		log:    slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
	return run(context.Background(), env, os.Args[1:])
}

// run executes one command line in env and returns its exit code. It is
// shared by Execute and the owner socket.
func run(ctx context.Context, env *Env, args []string) int {
	root := NewRootCmd(env, args)
	root.SetArgs(args)
	root.SetIn(env.In)
	root.SetOut(env.Out)
	root.SetErr(env.Err)
	err := root.ExecuteContext(ctx)
	if env.closeLocal != nil {
		env.closeLocal()
		env.closeLocal = nil
	}
	var remote errRemoteDone
	switch {
	case err == nil:
		return 0
	case errors.As(err, &remote):
		return remote.code
	default:
		fmt.Fprintln(env.Err, "Error:", err)
		return 1
	}
}

// NewRootCmd builds the command tree bound to env. args is the full command
// line, forwarded as is to a running server over the owner socket.
func NewRootCmd(env *Env, args []string) *cobra.Command {
	var configFile string
	root := &cobra.Command{
		Use:   "devhub",
		Short: "A self-hosted personal developer hub in one binary",
		Long: `devhub serves a portfolio, browser self-test tools, a Markdown blog, a file
cloud and a retro-game emulator, and lets the owner script users, articles,
files and ROMs from the terminal — also while the server runs.

` + configHelp,
		Example: `  devhub serve --addr :8080
  devhub user create --email me@example.com --name Me --admin
  DEVHUB_STORAGE_DATA_DIR=/srv/devhub devhub backup /backups/devhub.db`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if !env.loaded {
				cfg, err := loadConfig(configFile, configFlags(cmd))
				if err != nil {
					return err
				}
				env.cfg, env.loaded = cfg, true
			}
			if cmd.Annotations[annotationStore] == "" || env.remote {
				return nil
			}
			code, err := runRemote(env.cfg, env, args)
			if err == nil {
				return errRemoteDone{code: code}
			}
			if !errors.Is(err, errNoServer) {
				return err
			}
			return env.openLocal(cmd.Context())
		},
	}
	root.PersistentFlags().StringVar(&configFile, "config", "", "config file (default ./config.yaml when present)")
	root.AddCommand(
		newServeCmd(env),
		newBackupCmd(env),
		newRestoreCmd(env),
		newMailCmd(env),
		newUserCmd(env),
		newArticleCmd(env),
		newFileCmd(env),
		newRomCmd(env),
		newActivityCmd(env),
		newAuditCmd(env),
		newContentCmd(env),
		newStorageCmd(env),
		newDownloadCmd(env),
		newForumCmd(env),
		newCommentCmd(env),
		newNewsletterCmd(env),
	)
	documentCompletion(root)
	return root
}

// documentCompletion gives cobra's generated completion commands the same
// Example section every devhub command has.
func documentCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Example = "  source <(devhub completion bash)\n  devhub completion zsh > \"${fpath[1]}/_devhub\""
		for _, sh := range c.Commands() {
			sh.Example = "  devhub completion " + sh.Name() + " > devhub-completion." + sh.Name()
		}
	}
}

// configFlags maps config keys to the flags that may override them.
func configFlags(cmd *cobra.Command) map[string]*pflag.Flag {
	m := map[string]*pflag.Flag{}
	if f := cmd.Flags().Lookup("addr"); f != nil {
		m["server.addr"] = f
	}
	if f := cmd.Flags().Lookup("domain"); f != nil {
		m["server.domains"] = f
	}
	return m
}
