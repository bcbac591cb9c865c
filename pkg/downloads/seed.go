package downloads

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// seededKey in the store's meta bucket records that the example entries
// were offered once: an owner who deleted them does not get them back.
const seededKey = "downloads.seeded"

// CatalogueFile is the example catalogue inside the content directory.
const CatalogueFile = "downloads/catalogue.yaml"

type seedFile struct {
	Path   string `yaml:"path"`
	System string `yaml:"system"`
	Arch   string `yaml:"arch"`
}

type seedRelease struct {
	Version string     `yaml:"version"`
	Notes   string     `yaml:"notes"`
	Files   []seedFile `yaml:"files"`
}

type seedEntry struct {
	Section      string                 `yaml:"section"`
	Slug         string                 `yaml:"slug"`
	Name         string                 `yaml:"name"`
	Summary      string                 `yaml:"summary"`
	Description  string                 `yaml:"description"`
	Translations map[string]Translation `yaml:"translations"`
	Systems      []string               `yaml:"systems"`
	Requirements string                 `yaml:"requirements"`
	Licence      string                 `yaml:"licence"`
	Homepage     string                 `yaml:"homepage"`
	Icon         string                 `yaml:"icon"`
	Releases     []seedRelease          `yaml:"releases"`
}

// SeedFrom imports the example entries of contentDir/downloads/catalogue.yaml
// into an empty catalogue that was never seeded, marked as examples. A
// release whose files are missing (they are built by `make build`) is
// left out with a log line. It returns how many entries it added.
func (s *Service) SeedFrom(ctx context.Context, contentDir string, maxBytes int64) (int, error) {
	if done, err := s.st.Meta(seededKey); err != nil || done != nil || s.Count() > 0 {
		return 0, err
	}
	raw, err := os.ReadFile(filepath.Join(contentDir, CatalogueFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	var cat struct {
		Entries []seedEntry `yaml:"entries"`
	}
	if err := yaml.Unmarshal(raw, &cat); err != nil {
		return 0, fmt.Errorf("%s: %w", CatalogueFile, err)
	}
	base := filepath.Join(contentDir, filepath.Dir(CatalogueFile))
	n := 0
	for _, se := range cat.Entries {
		if _, err := s.Create(Entry{Section: se.Section, Slug: se.Slug, Name: se.Name, Summary: se.Summary,
			Description: se.Description, Translations: se.Translations, Systems: se.Systems,
			Requirements: se.Requirements, Licence: se.Licence, Homepage: se.Homepage, Example: true}); err != nil {
			return n, fmt.Errorf("%s: %s: %w", CatalogueFile, se.Slug, err)
		}
		n++
		if se.Icon != "" {
			if st, err := s.storePath(ctx, filepath.Join(base, se.Icon), maxBytes); err == nil {
				if _, err := s.AddMedia(ctx, se.Slug, "icon", st); err != nil {
					s.Discard(ctx, []*Stored{st})
				}
			}
		}
		// The catalogue lists releases oldest first, as they were made.
		for _, r := range se.Releases {
			if err := s.seedRelease(ctx, base, se.Slug, r, maxBytes); err != nil {
				s.log.Warn("example download release left out", slog.String("slug", se.Slug), slog.String("version", r.Version),
					slog.Any("err", err))
			}
		}
	}
	_, err = s.st.MetaOrInit(seededKey, func() ([]byte, error) { return []byte("1"), nil })
	return n, err
}

func (s *Service) seedRelease(ctx context.Context, base, slug string, r seedRelease, maxBytes int64) error {
	var fs []NewFile
	var stored []*Stored
	for _, f := range r.Files {
		st, err := s.storePath(ctx, filepath.Join(base, f.Path), maxBytes)
		if err != nil {
			s.Discard(ctx, stored)
			return err
		}
		stored = append(stored, st)
		fs = append(fs, NewFile{Stored: st, System: f.System, Arch: f.Arch})
	}
	if _, err := s.AddRelease(slug, r.Version, r.Notes, fs); err != nil {
		s.Discard(ctx, stored)
		return err
	}
	return nil
}

func (s *Service) storePath(ctx context.Context, path string, maxBytes int64) (*Stored, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return s.StoreFile(ctx, filepath.Base(path), f, maxBytes)
}
