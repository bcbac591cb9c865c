package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

func newArticleCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "article",
		Short: "Manage blog articles",
		Long: `article creates, lists, shows, edits and removes blog articles, and imports or
exports a folder of Markdown files with YAML front matter (the content/ format:
name, excerpt, category, image, date, slug). Article bodies are Markdown.`,
		Example: `  devhub article create --name "Hello" --excerpt "First post" --category News --file hello.md
  devhub article list --search емулятор
  devhub article show 3 --html
  devhub article export ./content && devhub article import ./content`,
		SilenceUsage: true,
	}
	cmd.AddCommand(
		newArticleCreateCmd(env),
		newArticleListCmd(env),
		newArticleShowCmd(env),
		newArticleEditCmd(env),
		newArticleRmCmd(env),
		newArticleImportCmd(env),
		newArticleExportCmd(env),
	)
	return cmd
}

// readBody reads the Markdown body from a file (relative to the caller's
// directory) or, for "-", from stdin.
func readBody(env *Env, path string) (string, error) {
	var r io.Reader
	if path == "-" {
		r = env.In
	} else {
		f, err := os.Open(env.Abs(path))
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, blog.MaxContentLen+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(raw) > blog.MaxContentLen {
		return "", fmt.Errorf("%s: the article body is larger than %d bytes", path, blog.MaxContentLen)
	}
	return string(raw), nil
}

func printArticle(env *Env, a *blog.Article, verb string, asJSON bool) error {
	if asJSON {
		return env.PrintJSON(a)
	}
	env.Printf("%s article %d (%s)\n", verb, a.ID, a.Slug)
	return nil
}

func newArticleCreateCmd(env *Env) *cobra.Command {
	var in blog.Input
	var file, publishAt string
	var asJSON, noNewsletter bool
	cmd := &cobra.Command{
		Use:   "create --name N --excerpt E --category C --file FILE|- [--image URL] [--lang L] [--translation-key K] [--status S] [--publish-at T]",
		Short: "Create an article from a Markdown file or stdin",
		Example: `  devhub article create --name "Running devhub" --excerpt "One binary" --category Guides --file run.md
  devhub article create --name "Запуск devhub" --excerpt "Один файл" --category Guides --lang uk --translation-key running-devhub --file run.uk.md
  echo "# Hi" | devhub article create --name Hi --excerpt Hello --category News --file -
  devhub article create --name Soon --excerpt Later --category News --publish-at 2030-01-31T10:00:00Z --file soon.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := parsePublishAt(cmd, publishAt)
			if err != nil {
				return err
			}
			in.PublishAt = t
			if t != nil && in.Status == "" {
				in.Status = blog.StatusScheduled
			}
			body, err := readBody(env, file)
			if err != nil {
				return err
			}
			in.Content = body
			if noNewsletter {
				no := false
				in.Newsletter = &no
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			a, err := svc.hub.CreateArticle(cmd.Context(), usecase.Owner(), in)
			if err != nil {
				return err
			}
			return printArticle(env, a, "created", asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Name, "name", "", "title (required)")
	f.StringVar(&in.Excerpt, "excerpt", "", "short summary shown in lists (required)")
	f.StringVar(&in.Category, "category", "", "category (required)")
	f.StringVar(&in.ImageURL, "image", "", "image: http(s) URL, /site/path, data:image/… URL or inline <svg> markup")
	f.StringVar(&in.Slug, "slug", "", "URL slug (default: derived from the name)")
	f.StringVar(&in.Lang, "lang", blog.DefaultLang, "the article's language (en, uk, ru, …)")
	f.StringVar(&in.TranslationKey, "translation-key", "", "shared by the articles that are translations of each other")
	f.StringVar(&file, "file", "", "Markdown body: a file, or - for stdin (required)")
	f.StringVar(&in.Status, "status", "", "draft, scheduled or published (default published; scheduled with --publish-at)")
	f.StringVar(&publishAt, "publish-at", "", "when a scheduled article goes public (RFC 3339, e.g. 2030-01-31T10:00:00Z)")
	f.BoolVar(&asJSON, "json", false, "print the created article as JSON")
	f.BoolVar(&noNewsletter, "no-newsletter", false, "do not mail the article to the newsletter's subscribers when it goes public")
	for _, name := range []string{"name", "excerpt", "category", "file"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return needsStore(cmd)
}

func newArticleListCmd(env *Env) *cobra.Command {
	var search, category string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--search S] [--category C] [--json]",
		Short: "List articles, newest first",
		Example: `  devhub article list
  devhub article list --category Guides --search "owner socket" --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			arts := svc.Blog.All(category, search, true)
			if asJSON {
				return env.PrintJSON(arts)
			}
			if len(arts) == 0 {
				fmt.Fprintln(env.Err, "no articles")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tDATE\tLANG\tCATEGORY\tSLUG\tNAME\tSTATUS")
			for _, a := range arts {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.CreatedAt.Format("2006-01-02"), a.Lang, a.Category, a.Slug, a.Name, a.Status)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&search, "search", "", "only articles containing all these words (any letter case)")
	cmd.Flags().StringVar(&category, "category", "", "only this category (any letter case)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return needsStore(cmd)
}

func newArticleShowCmd(env *Env) *cobra.Command {
	var asHTML, asJSON bool
	cmd := idArgCmd(env, &cobra.Command{
		Use:   "show ID [--html|--json]",
		Short: "Print an article (in the content/ file format, as HTML, or as JSON)",
		Example: `  devhub article show 3
  devhub article show 3 --html > article.html`,
	}, articleID, func(_ *cobra.Command, svc *services, id uint64, arg string) error {
		a, err := svc.Blog.Get(id)
		if err != nil {
			return articleErr(err, arg)
		}
		switch {
		case asJSON:
			html, err := svc.Blog.Render(a)
			if err != nil {
				return err
			}
			return env.PrintJSON(blog.WithHTML{Article: a, ContentHTML: html, Translations: svc.Blog.Translations(a, true)})
		case asHTML:
			html, err := svc.Blog.Render(a)
			if err != nil {
				return err
			}
			_, err = io.WriteString(env.Out, html)
			return err
		}
		raw, err := blog.FormatContentFile(a)
		if err != nil {
			return err
		}
		_, err = env.Out.Write(raw)
		return err
	})
	cmd.Flags().BoolVar(&asHTML, "html", false, "print the rendered HTML")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON with content and content_html")
	cmd.MarkFlagsMutuallyExclusive("html", "json")
	return cmd
}

func newArticleEditCmd(env *Env) *cobra.Command {
	var name, excerpt, category, image, slug, lang, key, file, status, publishAt string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "edit ID [--name N] [--excerpt E] [--category C] [--image URL] [--slug S] [--lang L] [--translation-key K] [--file FILE|-] [--status S] [--publish-at T]",
		Short: "Change an article; only the given flags change",
		Example: `  devhub article edit 3 --category Guides
  devhub article edit 3 --file updated.md
  devhub article edit 3 --image ""
  devhub article edit 3 --status draft
  devhub article edit 3 --publish-at 2030-01-31T10:00:00Z`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := articleID(args[0])
			if err != nil {
				return err
			}
			var p blog.Patch
			f := cmd.Flags()
			for flag, dst := range map[string]**string{"name": &p.Name, "excerpt": &p.Excerpt, "category": &p.Category, "image": &p.ImageURL, "slug": &p.Slug,
				"lang": &p.Lang, "translation-key": &p.TranslationKey, "status": &p.Status} {
				if f.Changed(flag) {
					v, _ := f.GetString(flag)
					*dst = &v
				}
			}
			if f.Changed("file") {
				body, err := readBody(env, file)
				if err != nil {
					return err
				}
				p.Content = &body
			}
			if p.PublishAt, err = parsePublishAt(cmd, publishAt); err != nil {
				return err
			}
			if p.PublishAt != nil && p.Status == nil {
				scheduled := blog.StatusScheduled
				p.Status = &scheduled
			}
			if f.Changed("newsletter") || f.Changed("no-newsletter") {
				if f.Changed("newsletter") && f.Changed("no-newsletter") {
					return fmt.Errorf("give one of --newsletter and --no-newsletter")
				}
				on, _ := f.GetBool("newsletter")
				off, _ := f.GetBool("no-newsletter")
				v := on
				if f.Changed("no-newsletter") {
					v = !off
				}
				p.Newsletter = &v
			}
			if p == (blog.Patch{}) {
				return fmt.Errorf("nothing to change: give at least one of --name, --excerpt, --category, --image, --slug, --lang, --translation-key, --file, --status, --publish-at, --newsletter, --no-newsletter")
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			a, err := svc.hub.EditArticle(cmd.Context(), usecase.Owner(), id, p)
			if err != nil {
				return articleErr(err, args[0])
			}
			return printArticle(env, a, "updated", asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "new title")
	f.StringVar(&excerpt, "excerpt", "", "new summary")
	f.StringVar(&category, "category", "", "new category")
	f.StringVar(&image, "image", "", `new image ("" removes it)`)
	f.StringVar(&slug, "slug", "", "new slug")
	f.StringVar(&lang, "lang", "", "new language (en, uk, ru, …)")
	f.StringVar(&key, "translation-key", "", `link with the articles of this key ("" unlinks)`)
	f.StringVar(&file, "file", "", "new Markdown body: a file, or - for stdin")
	f.StringVar(&status, "status", "", "draft, scheduled or published")
	f.StringVar(&publishAt, "publish-at", "", "when a scheduled article goes public (RFC 3339; implies --status scheduled)")
	f.BoolVar(&asJSON, "json", false, "print the article as JSON")
	f.Bool("newsletter", false, "mail the article to the newsletter's subscribers when it goes public")
	f.Bool("no-newsletter", false, "do not mail the article to the newsletter's subscribers")
	return needsStore(cmd)
}

func newArticleRmCmd(env *Env) *cobra.Command {
	return idArgCmd(env, &cobra.Command{
		Use:     "rm ID",
		Short:   "Delete an article",
		Example: "  devhub article rm 3",
	}, articleID, func(cmd *cobra.Command, svc *services, id uint64, arg string) error {
		if err := svc.hub.DeleteArticle(cmd.Context(), usecase.Owner(), id); err != nil {
			return articleErr(err, arg)
		}
		env.Printf("deleted article %d\n", id)
		return nil
	})
}

func newArticleImportCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "import DIR",
		Short: "Create or update articles from DIR/*.md, matched by slug (all or nothing)",
		Long: `import reads every *.md file of DIR (front matter: name, excerpt, category,
and optionally image, date, slug — the file name is the default slug). Articles
are matched by slug: new ones are created, changed ones updated, equal ones left
alone, so importing twice changes nothing. If any file is bad, the error names
the file and field and nothing is imported.`,
		Example: `  devhub article import ./content`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			res, err := svc.Blog.Import(cmd.Context(), env.Abs(args[0]))
			var fe *blog.FileError
			if errors.As(err, &fe) {
				// Name the file as the caller would: under DIR as they typed it.
				fe.File = filepath.Join(args[0], filepath.Base(fe.File))
			}
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(res)
			}
			env.Printf("imported %s: %d created, %d updated, %d unchanged\n", args[0], res.Created, res.Updated, res.Unchanged)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	return needsStore(cmd)
}

func newArticleExportCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "export DIR",
		Short:   "Write every article to DIR/<slug>.md in the format import reads",
		Example: `  devhub article export ./backup/content`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			n, err := svc.Blog.Export(cmd.Context(), env.Abs(args[0]))
			if err != nil {
				return err
			}
			env.Printf("exported %d articles to %s\n", n, args[0])
			return nil
		},
	}
	return needsStore(cmd)
}

// parsePublishAt reads --publish-at (nil when not given); a value that is
// not an RFC 3339 time is an error naming the flag.
func parsePublishAt(cmd *cobra.Command, v string) (*time.Time, error) {
	if !cmd.Flags().Changed("publish-at") {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
	if err != nil {
		return nil, fmt.Errorf("--publish-at %q is not a time; use RFC 3339, e.g. 2030-01-31T10:00:00Z", v)
	}
	return &t, nil
}

// articleID parses an id argument; the message says what was expected.
func articleID(arg string) (uint64, error) {
	id, err := blog.ParseID(arg)
	if err != nil {
		return 0, fmt.Errorf("%q is not an article id (a positive number; see `devhub article list`)", arg)
	}
	return id, nil
}

func articleErr(err error, arg string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no article with id %s", arg)
	}
	return err
}

// seedBlog imports content/ into a store that never had articles (serve's
// startup). A broken content folder is logged, not fatal: the site still
// serves, and `devhub article import` shows the same error to fix it.
func (s *services) seedBlog(ctx context.Context) {
	dir := s.cfg.Storage.ContentDir
	if dir == "" {
		return
	}
	res, seeded, err := s.Blog.SeedFrom(ctx, dir)
	if err != nil {
		s.log.Error("could not import the default articles", slog.String("dir", dir), slog.Any("err", err))
		return
	}
	if seeded {
		s.log.Info("imported the default articles", slog.String("dir", dir), slog.Int("articles", res.Created))
	}
}
