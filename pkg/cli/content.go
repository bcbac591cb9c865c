package cli

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/profile"
	"github.com/devhub/devhub/site"
)

// iconName is a simple-icons slug; anything else cannot be an icon file name.
var iconName = regexp.MustCompile(`^[a-z0-9]+$`)

// siteIcons checks icon names against the icons the binary serves (site/dist/icons, copied from
// simple-icons at build time — see site/scripts/iconsPlugin.ts). A binary built without the site
// has no icon set; then names are not checked.
func siteIcons(site fs.FS) profile.IconExists {
	if site == nil {
		return nil
	}
	if _, err := fs.Stat(site, "icons/generic.svg"); err != nil {
		return nil
	}
	return func(name string) bool {
		if !iconName.MatchString(name) {
			return false
		}
		_, err := fs.Stat(site, "icons/"+name+".svg")
		return err == nil
	}
}

// loadProfile reads and checks content/profile.yaml; a missing file is not an error (the
// portfolio then shows no owner) and gives nil.
func loadProfile(contentDir string, site fs.FS) (*profile.Loaded, error) {
	l, err := profile.Load(contentDir, siteIcons(site))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return l, err
}

func newContentCmd(env *Env) *cobra.Command {
	content := &cobra.Command{
		Use:   "content",
		Short: "Check the owner's content files",
		Long: `content works on storage.content_dir: the Markdown articles the blog imports
and profile.yaml, the portfolio (docs/profile.md).`,
		Example: "  devhub content check",
	}
	content.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Check content/profile.yaml (the portfolio) as serve does at start",
		Long: `check reads the portfolio file in storage.content_dir and reports the first
problem — an unknown key, a missing required field, an icon the binary does not
have, an avatar that is missing or not an image — as FILE:LINE: FIELD: message,
and exits non-zero. serve refuses to start on the same problems.`,
		Example: `  devhub content check
  DEVHUB_STORAGE_CONTENT_DIR=./my-content devhub content check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := env.Abs(env.cfg.Storage.ContentDir)
			l, err := loadProfile(dir, env.siteFS())
			if err != nil {
				return err
			}
			if l == nil {
				env.Printf("no %s in %s: the portfolio shows no owner\n", profile.FileName, dir)
				return nil
			}
			p := l.Profile
			env.Printf("%s is valid: %s — %d services, %d technologies, %d tools, %d tool groups, %d projects\n",
				filepath.Join(dir, profile.FileName), p.Name["en"], len(p.Services), len(p.Technologies), len(p.Tools),
				len(p.DevTools.Groups), len(p.Projects))
			return nil
		},
	})
	return content
}

// siteFS is the site whose icon set content checks use: Env.Site, else the one in the binary.
func (e *Env) siteFS() fs.FS {
	if e.Site != nil {
		return e.Site
	}
	return site.FS()
}
