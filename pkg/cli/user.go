package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// annotationPassword marks commands that need a new password. On a terminal
// the `user` command prompts for it (without echo) in the caller's own
// process before anything else runs, then hands it to the command through
// stdin. That is what lets the prompt work while a server runs: the command
// itself may execute inside the server, which cannot switch off the echo of
// the caller's terminal.
const annotationPassword = "devhub/password"

// maxStdinPassword bounds how much of stdin a password read consumes.
const maxStdinPassword = 64 << 10

func newUserCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Manage user accounts",
		Long: `user creates, lists and changes the accounts of the site. Passwords are
prompted without echo on a terminal; with --password-stdin, or when stdin is
not a terminal, the first line of stdin is the password.`,
		Example: `  devhub user create --email me@example.com --name Me --admin
  echo "$ADMIN_PASSWORD" | devhub user create --email ci@example.com --name CI --admin --password-stdin --if-not-exists
  devhub user list --json
  devhub user sessions revoke me@example.com`,
		SilenceUsage: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := promptPasswordFirst(env, cmd, args); err != nil {
				return err
			}
			// A PersistentPreRunE here replaces the root's; run it too
			// (config, owner socket or local store).
			if root := cmd.Root(); root.PersistentPreRunE != nil {
				return root.PersistentPreRunE(cmd, args)
			}
			return nil
		},
	}
	cmd.AddCommand(
		newUserCreateCmd(env),
		newUserListCmd(env),
		newUserSetRoleCmd(env),
		newUserPasswdCmd(env),
		newUserRmCmd(env),
		newUserSessionsCmd(env),
		newUser2FACmd(env),
		newUserInviteCmd(env),
		newUserQuotaCmd(env),
	)
	return cmd
}

func needsPassword(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotationPassword] = "true"
	return cmd
}

// promptPasswordFirst asks for the password on the caller's terminal when
// cmd needs one and the caller did not choose --password-stdin, and feeds
// the answer to the command as its stdin. It does not ask when the command
// is bound to end without using the password: `create` for an e-mail that
// already has an account (an error, or nothing to do with --if-not-exists)
// or without --email/--name, and `passwd` for an unknown e-mail; the
// command then runs and says so.
func promptPasswordFirst(env *Env, cmd *cobra.Command, args []string) error {
	if cmd.Annotations[annotationPassword] == "" || env.remote || !env.InTTY {
		return nil
	}
	if f := cmd.Flags().Lookup("password-stdin"); f != nil && f.Changed {
		return nil
	}
	switch cmd.Name() {
	case "create":
		email, _ := cmd.Flags().GetString("email")
		name, _ := cmd.Flags().GetString("name")
		if email == "" || name == "" {
			return nil
		}
		if exists, known := accountExists(env, cmd, email); known && exists {
			return nil
		}
	case "passwd":
		if len(args) == 1 {
			if exists, known := accountExists(env, cmd, args[0]); known && !exists {
				return nil
			}
		}
	}
	pw, err := env.promptPassword("Password: ")
	if err != nil {
		return err
	}
	again, err := env.promptPassword("Repeat password: ")
	if err != nil {
		return err
	}
	if pw != again {
		return errors.New("the passwords do not match")
	}
	env.In = strings.NewReader(pw + "\n")
	env.InTTY = false
	return nil
}

// accountExists asks the store whether email has an account, the way any
// command would reach it (inside a running server over the owner socket,
// else directly), by running `user list --json`. known is false when that
// could not be told; the command itself then reports the problem.
func accountExists(env *Env, cmd *cobra.Command, email string) (exists, known bool) {
	configFile := ""
	if f := cmd.Root().PersistentFlags().Lookup("config"); f != nil {
		configFile = f.Value.String()
	}
	cfg, err := loadConfig(configFile, configFlags(cmd))
	if err != nil {
		return false, false
	}
	var out bytes.Buffer
	probe := &Env{In: strings.NewReader(""), Out: &out, Err: io.Discard, Cwd: env.Cwd, cfg: cfg, loaded: true, log: env.log}
	if run(cmd.Context(), probe, []string{"user", "list", "--json"}) != 0 {
		return false, false
	}
	var users []auth.User
	if err := json.Unmarshal(out.Bytes(), &users); err != nil {
		return false, false
	}
	want := auth.NormalizeEmail(email)
	for _, u := range users {
		if u.Email == want {
			return true, true
		}
	}
	return false, true
}

// promptPassword asks for a password through env.Prompt, or on the terminal.
func (env *Env) promptPassword(prompt string) (string, error) {
	if env.Prompt != nil {
		return env.Prompt(prompt)
	}
	return terminalPassword(env, prompt)
}

// terminalPassword reads a line from the terminal without echo. Ctrl-C
// restores the echo, then interrupts the process as Ctrl-C would have.
func terminalPassword(env *Env, prompt string) (string, error) {
	f, ok := env.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", errors.New("no terminal to prompt on; use --password-stdin")
	}
	fd := int(f.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	// Ctrl-C while echo is off would leave the terminal silent: restore it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	defer func() { signal.Stop(sig); close(done) }()
	go func() {
		select {
		case <-sig:
			term.Restore(fd, state)
			fmt.Fprintln(env.Err)
			// Back to the default action for SIGINT, then deliver it again:
			// the process ends as interrupted (exit status 130 in a shell)
			// without os.Exit from a goroutine.
			signal.Reset(os.Interrupt)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(os.Interrupt)
			}
		case <-done:
		}
	}()
	fmt.Fprint(env.Err, prompt)
	b, err := term.ReadPassword(fd)
	fmt.Fprintln(env.Err)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readPassword returns the password for a command: the first line of stdin.
// (On a terminal the `user` command has already prompted and put the answer
// there.)
func readPassword(env *Env, fromStdin bool) (string, error) {
	if env.InTTY && !fromStdin {
		return "", errors.New("no password given; use --password-stdin")
	}
	line, err := bufio.NewReader(io.LimitReader(env.In, maxStdinPassword)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read password from stdin: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("no password on stdin (expected it on the first line)")
	}
	return line, nil
}

func newUserCreateCmd(env *Env) *cobra.Command {
	var (
		email, name                         string
		admin, fromStdin, ifMissing, asJSON bool
	)
	cmd := needsPassword(needsStore(&cobra.Command{
		Use:   "create --email EMAIL --name NAME [--admin] [--password-stdin]",
		Short: "Create an account",
		Long: `create adds an account (role user, or admin with --admin). The password is
prompted twice without echo on a terminal, or read from the first line of
stdin with --password-stdin. An e-mail that already has an account is an
error naming it, unless --if-not-exists (then nothing changes and the exit
code is 0, for idempotent seeding).`,
		Example: `  devhub user create --email me@example.com --name "Me" --admin
  printf '%s\n' "$PW" | devhub user create --email bot@example.com --name Bot --password-stdin --if-not-exists`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if email == "" || name == "" {
				return errors.New("--email and --name are required")
			}
			if existing, err := svc.Auth.UserByEmail(email); err == nil {
				if !ifMissing {
					return fmt.Errorf("an account with e-mail %s already exists (use --if-not-exists to accept that)", existing.Email)
				}
				if asJSON {
					return env.PrintJSON(existing)
				}
				env.Printf("account %s already exists; nothing changed\n", existing.Email)
				return nil
			}
			pw, err := readPassword(env, fromStdin)
			if err != nil {
				return err
			}
			role := auth.RoleUser
			if admin {
				role = auth.RoleAdmin
			}
			u, err := svc.Auth.CreateUser(cmd.Context(), auth.NewUser{Email: email, Name: name, Password: pw, Role: role})
			if err != nil {
				if ifMissing && errors.Is(err, store.ErrConflict) {
					env.Printf("account %s already exists; nothing changed\n", auth.NormalizeEmail(email))
					return nil
				}
				return err
			}
			svc.record(cmd.Context(), audit.Event{Type: audit.UserCreated, Target: u.Email, Details: map[string]string{"role": u.Role}})
			if asJSON {
				return env.PrintJSON(u)
			}
			env.Printf("created %s %s (id %d)\n", u.Role, u.Email, u.ID)
			return nil
		},
	}))
	f := cmd.Flags()
	f.StringVar(&email, "email", "", "e-mail address (the login; case-insensitive)")
	f.StringVar(&name, "name", "", "display name")
	f.BoolVar(&admin, "admin", false, "give the account the admin role")
	f.BoolVar(&fromStdin, "password-stdin", false, "read the password from the first line of stdin")
	f.BoolVar(&ifMissing, "if-not-exists", false, "exit 0 without changes when the e-mail already has an account")
	f.BoolVar(&asJSON, "json", false, "print the account as JSON")
	return cmd
}

func newUserListCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := needsStore(&cobra.Command{
		Use:   "list",
		Short: "List accounts",
		Long: `list prints every account in id order. --json prints an array of objects
with the fields id, email, name, role and createdAt.`,
		Example: `  devhub user list
  devhub user list --json | jq -r '.[] | select(.role=="admin") | .email'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			users, err := svc.Auth.Users()
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(users)
			}
			if len(users) == 0 {
				env.Printf("no accounts yet; create one with: devhub user create --email EMAIL --name NAME --admin\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tROLE\tCREATED")
			for _, u := range users {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", u.ID, u.Email, u.Name, u.Role, u.CreatedAt.Local().Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newUserSetRoleCmd(env *Env) *cobra.Command {
	return needsStore(&cobra.Command{
		Use:   "set-role EMAIL admin|user",
		Short: "Change an account's role (ends its sessions)",
		Long: `set-role makes an account an admin or an ordinary user. The account's
sessions end and its access tokens stop working at once, so a demotion takes
effect immediately; the user signs in again.`,
		Example: `  devhub user set-role me@example.com admin
  devhub user set-role intern@example.com user`,
		Args:      cobra.ExactArgs(2),
		ValidArgs: []string{auth.RoleAdmin, auth.RoleUser},
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[1] != auth.RoleAdmin && args[1] != auth.RoleUser {
				return fmt.Errorf("role must be admin or user, got %q", args[1])
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			u, err := svc.hub.SetRole(cmd.Context(), usecase.Owner(), args[0], args[1])
			if err != nil {
				return err
			}
			env.Printf("%s is now %s\n", u.Email, u.Role)
			return nil
		},
	})
}

func newUserPasswdCmd(env *Env) *cobra.Command {
	var fromStdin bool
	cmd := needsPassword(needsStore(&cobra.Command{
		Use:   "passwd EMAIL [--password-stdin]",
		Short: "Set an account's password (ends its sessions)",
		Long: `passwd sets a new password for the account (prompted without echo on a
terminal, or the first line of stdin with --password-stdin) and ends all of
its sessions.`,
		Example: `  devhub user passwd me@example.com
  printf '%s\n' "$NEW_PW" | devhub user passwd me@example.com --password-stdin`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if _, err := svc.Auth.UserByEmail(args[0]); err != nil {
				return err
			}
			pw, err := readPassword(env, fromStdin)
			if err != nil {
				return err
			}
			if err := svc.Auth.SetPassword(cmd.Context(), args[0], pw); err != nil {
				return err
			}
			svc.record(cmd.Context(), audit.Event{Type: audit.PasswordChanged, Target: auth.NormalizeEmail(args[0])})
			env.Printf("password of %s changed; its sessions were ended\n", auth.NormalizeEmail(args[0]))
			return nil
		},
	}))
	cmd.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the password from the first line of stdin")
	return cmd
}

func newUserRmCmd(env *Env) *cobra.Command {
	var deleteFiles bool
	cmd := needsStore(&cobra.Command{
		Use:   "rm EMAIL [--delete-files]",
		Short: "Delete an account and its sessions (its uploaded files pass to the admins unless --delete-files)",
		Example: `  devhub user rm old@example.com
  devhub user rm spammer@example.com --delete-files`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			email := auth.NormalizeEmail(args[0])
			removed, err := svc.hub.DeleteAccount(cmd.Context(), usecase.Owner(), email, deleteFiles)
			if err != nil {
				return err
			}
			if deleteFiles {
				env.Printf("deleted %s and %d file(s) it uploaded\n", email, removed)
			} else {
				env.Printf("deleted %s; %d file(s) it uploaded passed to the admins\n", email, removed)
			}
			return nil
		},
	})
	cmd.Flags().BoolVar(&deleteFiles, "delete-files", false, "also delete the files the account uploaded")
	return cmd
}

func newUserSessionsCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List or end an account's sign-in sessions",
		Example: `  devhub user sessions list me@example.com
  devhub user sessions revoke me@example.com`,
		SilenceUsage: true,
	}
	var asJSON bool
	list := needsStore(&cobra.Command{
		Use:     "list EMAIL",
		Short:   "List the account's live sessions, most recently used first",
		Example: "  devhub user sessions list me@example.com --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			sessions, err := svc.Auth.Sessions(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				if sessions == nil {
					sessions = []auth.Session{}
				}
				return env.PrintJSON(sessions)
			}
			if len(sessions) == 0 {
				env.Printf("no live sessions\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "LAST USED\tSINCE\tIP\tBROWSER")
			for _, x := range sessions {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", x.LastUsedAt.Local().Format(time.DateTime),
					x.CreatedAt.Local().Format(time.DateOnly), x.IP, termSafe(x.UserAgent))
			}
			return tw.Flush()
		},
	})
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	revoke := needsStore(&cobra.Command{
		Use:   "revoke EMAIL",
		Short: "Log the account out everywhere",
		Long: `revoke ends every session of the account and invalidates its access tokens
at once; every device has to sign in again.`,
		Example: "  devhub user sessions revoke me@example.com",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			n, err := svc.hub.RevokeSessions(cmd.Context(), usecase.Owner(), args[0])
			if err != nil {
				return err
			}
			env.Printf("ended %d session(s) of %s\n", n, auth.NormalizeEmail(args[0]))
			return nil
		},
	})
	cmd.AddCommand(list, revoke)
	return cmd
}

// authStartup is the accounts' once-per-serve work: drop expired sessions,
// and tell an owner whose store has no admin yet how to make one.
func (s *services) authStartup(ctx context.Context) {
	if err := s.Auth.Sweep(ctx); err != nil {
		s.log.Warn("could not sweep expired sessions", slog.Any("err", err))
	}
	if n, err := s.Auth.CountAdmins(); err == nil && n == 0 {
		s.log.Warn(`no admin account yet; create one with: devhub user create --email you@example.com --name "Your Name" --admin`)
	}
}

func newUser2FACmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "2fa",
		Short: "Show or turn off an account's two-factor sign-in",
		Example: `  devhub user 2fa status me@example.com
  devhub user 2fa disable me@example.com`,
		SilenceUsage: true,
	}
	var asJSON bool
	status := needsStore(&cobra.Command{
		Use:     "status EMAIL",
		Short:   "Show whether the account signs in with a one-time code, and its recovery codes left",
		Example: "  devhub user 2fa status me@example.com --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			st, err := svc.Auth.TwoFactor(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(st)
			}
			if !st.TOTP {
				env.Printf("two-factor sign-in: off\n")
				return nil
			}
			env.Printf("two-factor sign-in: on (authenticator app), %d recovery code(s) left\n", st.RecoveryCodesLeft)
			return nil
		},
	})
	status.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	disable := needsStore(&cobra.Command{
		Use:   "disable EMAIL",
		Short: "Turn off the account's two-factor sign-in (it lost its authenticator and recovery codes)",
		Long: `disable removes the account's authenticator and recovery codes without asking for a
code; the password alone signs in again until the user enrols anew from the profile.`,
		Example: "  devhub user 2fa disable me@example.com",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if err := svc.hub.ResetTwoFactor(cmd.Context(), usecase.Owner(), args[0]); err != nil {
				return err
			}
			env.Printf("two-factor sign-in turned off for %s\n", auth.NormalizeEmail(args[0]))
			return nil
		},
	})
	cmd.AddCommand(status, disable)
	return cmd
}

func newUserInviteCmd(env *Env) *cobra.Command {
	var expires string
	var asJSON bool
	cmd := needsStore(&cobra.Command{
		Use:   "invite [--expires 7d] [--json]",
		Short: "Make a single-use invitation code to register (auth.registration: invite)",
		Long: `invite prints a new invitation code; a visitor registers with it once, before it
expires. The code is shown this once: the store keeps only its hash.`,
		Example: `  devhub user invite
  devhub user invite --expires 36h --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ttl, err := auth.ParseTTL(expires)
			if err == nil && ttl <= 0 {
				err = fmt.Errorf("--expires must be positive")
			}
			if err != nil {
				return fmt.Errorf("--expires: %w", err)
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			inv, err := svc.Auth.CreateInvite(cmd.Context(), ownerActor, ttl)
			if err != nil {
				return err
			}
			svc.record(cmd.Context(), audit.Event{Type: audit.InviteCreated, Target: inv.ID,
				Details: map[string]string{"expiresAt": inv.ExpiresAt.Format(time.RFC3339)}})
			if asJSON {
				return env.PrintJSON(inv)
			}
			env.Printf("%s\n", inv.Code)
			if svc.Auth.Registration() != auth.RegistrationInvite {
				fmt.Fprintf(env.Err, "note: auth.registration is %q; the code counts only when it is \"invite\"\n", svc.Auth.Registration())
			}
			env.Printf("valid until %s\n", inv.ExpiresAt.Local().Format(time.DateTime))
			return nil
		},
	})
	cmd.Flags().StringVar(&expires, "expires", "7d", "how long the code is valid: days (7d) or a duration (36h)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
