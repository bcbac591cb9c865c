package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/usecase"
)

// parseIDArg reads a positive id argument.
func parseIDArg(what, raw string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimSpace(raw), 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%s must be a positive number, got %q", what, raw)
	}
	return id, nil
}

// idCmd is a command acting on the one record its ID argument names: the
// id is checked before the store is opened, and do runs with the
// services.
func idCmd(env *Env, use, short, example string, do func(cmd *cobra.Command, svc *services, id uint64) error) *cobra.Command {
	return idArgCmd(env, &cobra.Command{Use: use, Short: short, Example: example},
		func(arg string) (uint64, error) { return parseIDArg("ID", arg) },
		func(cmd *cobra.Command, svc *services, id uint64, _ string) error { return do(cmd, svc, id) })
}

// idArgCmd completes cmd as a command on the one record its argument
// names: parse reads the id from it, and do runs with the services, the
// id and the argument as given.
func idArgCmd(env *Env, cmd *cobra.Command, parse func(arg string) (uint64, error), do func(cmd *cobra.Command, svc *services, id uint64, arg string) error) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := parse(args[0])
		if err != nil {
			return err
		}
		svc, err := env.Services()
		if err != nil {
			return err
		}
		return do(cmd, svc, id, args[0])
	}
	return needsStore(cmd)
}

func newForumCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:          "forum",
		Short:        "Manage the forum's categories and threads",
		Example:      "  devhub forum category add --name General --description \"Anything goes\"\n  devhub forum thread list --json",
		SilenceUsage: true,
	}
	category := &cobra.Command{
		Use:          "category",
		Short:        "Add, list and remove forum categories",
		Example:      "  devhub forum category list",
		SilenceUsage: true,
	}
	category.AddCommand(newForumCategoryAddCmd(env), newForumCategoryListCmd(env), newForumCategoryRmCmd(env))
	thread := &cobra.Command{
		Use:          "thread",
		Short:        "List and remove forum threads",
		Example:      "  devhub forum thread list --category 1",
		SilenceUsage: true,
	}
	thread.AddCommand(newForumThreadListCmd(env), newForumThreadRmCmd(env))
	cmd.AddCommand(category, thread)
	return cmd
}

func newForumCategoryAddCmd(env *Env) *cobra.Command {
	var (
		name, description string
		names, descs      map[string]string
		position          int
	)
	cmd := needsStore(&cobra.Command{
		Use:   "add --name NAME [--description TEXT] [--name-in uk=Назва] [--position N]",
		Short: "Add a forum category",
		Long: `add creates a category. --name is its default name; --name-in and --description-in give
it in other languages (LANG=TEXT, repeatable). --position orders the categories (smallest
first; default: after the last).`,
		Example: `  devhub forum category add --name General --name-in uk=Загальне --description "Anything goes"`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			in := discuss.CategoryInput{Name: &name, Names: names, Description: &description, Descriptions: descs}
			if cmd.Flags().Changed("position") {
				in.Position = &position
			}
			c, err := svc.hub.SaveForumCategory(cmd.Context(), usecase.Owner(), 0, in)
			if err != nil {
				return err
			}
			env.Printf("category %d added: %s\n", c.ID, c.Name)
			return nil
		},
	})
	cmd.Flags().StringVar(&name, "name", "", "the category's name (required)")
	cmd.Flags().StringVar(&description, "description", "", "one line saying what belongs here")
	cmd.Flags().StringToStringVar(&names, "name-in", nil, "the name in another language, LANG=TEXT (repeatable)")
	cmd.Flags().StringToStringVar(&descs, "description-in", nil, "the description in another language, LANG=TEXT (repeatable)")
	cmd.Flags().IntVar(&position, "position", 0, "place in the list (smallest first)")
	return cmd
}

func newForumCategoryListCmd(env *Env) *cobra.Command {
	return readCmd(env, &cobra.Command{
		Use:     "list [--json]",
		Short:   "List the forum's categories in order",
		Example: "  devhub forum category list --json",
	}, "print JSON", func(cmd *cobra.Command, svc *services) ([]discuss.Category, error) {
		return svc.hub.ForumCategories(cmd.Context(), usecase.Owner())
	}, func(cats []discuss.Category) error {
		tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tPOSITION\tTHREADS\tNAME")
		for _, c := range cats {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%s\n", c.ID, c.Position, c.Threads, c.Name)
		}
		return tw.Flush()
	})
}

func newForumCategoryRmCmd(env *Env) *cobra.Command {
	return idCmd(env, "rm ID", "Remove a forum category with its threads", "  devhub forum category rm 3", func(cmd *cobra.Command, svc *services, id uint64) error {
		n, err := svc.hub.DeleteForumCategory(cmd.Context(), usecase.Owner(), id)
		if err != nil {
			return err
		}
		env.Printf("category %d removed with %d threads\n", id, n)
		return nil
	})
}

func newForumThreadListCmd(env *Env) *cobra.Command {
	var category, search string
	cmd := readCmd(env, &cobra.Command{
		Use:     "list [--category ID] [--search WORDS] [--json]",
		Short:   "List forum threads (every status), newest first",
		Example: "  devhub forum thread list --category 1\n  devhub forum thread list --search backup --json",
	}, "print JSON", func(cmd *cobra.Command, svc *services) ([]discuss.Thread, error) {
		q := discuss.ThreadQuery{Sort: discuss.Newest, Search: search, Limit: 100}
		if category != "" {
			id, err := parseIDArg("--category", category)
			if err != nil {
				return nil, err
			}
			q.Category = id
		}
		all := []discuss.Thread{}
		for q.Page = 1; ; q.Page++ {
			_, page, err := svc.hub.ForumThreads(cmd.Context(), usecase.Owner(), q)
			if err != nil {
				return nil, err
			}
			all = append(all, page.Threads...)
			if len(page.Threads) < q.Limit {
				return all, nil
			}
		}
	}, func(all []discuss.Thread) error {
		tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tCATEGORY\tSTATUS\tREPLIES\tCREATED\tTITLE")
		for _, t := range all {
			flags := ""
			if t.Pinned {
				flags += " [pinned]"
			}
			if t.Locked {
				flags += " [locked]"
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%s\t%s%s\n", t.ID, t.CategoryID, t.Status, t.Replies,
				t.CreatedAt.Local().Format(time.DateTime), t.Title, flags)
		}
		return tw.Flush()
	})
	cmd.Flags().StringVar(&category, "category", "", "only this category's threads")
	cmd.Flags().StringVar(&search, "search", "", "only threads containing these words, best match first")
	return cmd
}

func newForumThreadRmCmd(env *Env) *cobra.Command {
	return idCmd(env, "rm ID", "Remove a forum thread with its posts", "  devhub forum thread rm 12", func(cmd *cobra.Command, svc *services, id uint64) error {
		t, err := svc.hub.DeleteForumThread(cmd.Context(), usecase.Owner(), id)
		if err != nil {
			return err
		}
		env.Printf("thread %d removed: %s\n", t.ID, t.Title)
		return nil
	})
}

func newCommentCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:          "comment",
		Short:        "List, approve and remove comments under articles",
		Example:      "  devhub comment list --pending\n  devhub comment approve 7",
		SilenceUsage: true,
	}
	cmd.AddCommand(newCommentListCmd(env), newCommentApproveCmd(env), newCommentRmCmd(env))
	return cmd
}

func newCommentListCmd(env *Env) *cobra.Command {
	var (
		pending bool
		article string
	)
	cmd := readCmd(env, &cobra.Command{
		Use:     "list [--article ID] [--pending] [--json]",
		Short:   "List comments (every status), newest first",
		Example: "  devhub comment list --pending\n  devhub comment list --article 4 --json",
	}, "print JSON", func(cmd *cobra.Command, svc *services) ([]discuss.Comment, error) {
		var aid uint64
		if article != "" {
			id, err := blog.ParseID(article)
			if err != nil {
				return nil, fmt.Errorf("--article must be an article id, got %q", article)
			}
			aid = id
		}
		return svc.hub.AllComments(cmd.Context(), usecase.Owner(), aid, pending)
	}, func(list []discuss.Comment) error {
		tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tARTICLE\tSTATUS\tAUTHOR\tCREATED\tTEXT")
		for _, c := range list {
			author := c.Author.Name
			if c.Author.ID == 0 {
				author = "(deleted account)"
			}
			text := strings.Join(strings.Fields(c.Content), " ")
			if len([]rune(text)) > 60 {
				text = string([]rune(text)[:60]) + "…"
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", c.ID, c.ArticleID, c.Status, author,
				c.CreatedAt.Local().Format(time.DateTime), text)
		}
		return tw.Flush()
	})
	cmd.Flags().BoolVar(&pending, "pending", false, "only comments waiting for approval")
	cmd.Flags().StringVar(&article, "article", "", "only this article's comments")
	return cmd
}

func newCommentApproveCmd(env *Env) *cobra.Command {
	return idCmd(env, "approve ID", "Publish a comment that waits for approval", "  devhub comment approve 7", func(cmd *cobra.Command, svc *services, id uint64) error {
		c, err := svc.hub.ModerateComment(cmd.Context(), usecase.Owner(), id, discuss.Published)
		if err != nil {
			return err
		}
		env.Printf("comment %d published\n", c.ID)
		return nil
	})
}

func newCommentRmCmd(env *Env) *cobra.Command {
	return idCmd(env, "rm ID", "Remove a comment and the replies to it", "  devhub comment rm 7", func(cmd *cobra.Command, svc *services, id uint64) error {
		if err := svc.hub.DeleteComment(cmd.Context(), usecase.Owner(), id); err != nil {
			return err
		}
		env.Printf("comment %d removed\n", id)
		return nil
	})
}
