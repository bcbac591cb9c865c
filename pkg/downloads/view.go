package downloads

import (
	"net/url"
	"time"
)

// FileView is a release's file as the API and `devhub download list
// --json` show it: no storage key, the URL that serves its bytes.
type FileView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	System    string `json:"system"`
	Arch      string `json:"arch"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	URL       string `json:"url"`
	Downloads int64  `json:"downloads"`
}

// ReleaseView is a release as shown.
type ReleaseView struct {
	Version string     `json:"version"`
	Notes   string     `json:"notes"`
	Date    time.Time  `json:"date"`
	Files   []FileView `json:"files"`
	// NotesHTML is the notes rendered (safe Markdown).
	NotesHTML string `json:"notesHtml,omitempty"`
}

// ImageView is an icon or a screenshot as shown.
type ImageView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// EntryView is an entry as its page shows it.
type EntryView struct {
	Section      string                 `json:"section"`
	Slug         string                 `json:"slug"`
	Name         string                 `json:"name"`
	Summary      string                 `json:"summary"`
	Description  string                 `json:"description"`
	Translations map[string]Translation `json:"translations"`
	// DescriptionHTML is the description rendered (safe Markdown) per
	// language: "" for the entry's own, then each translation's.
	DescriptionHTML map[string]string `json:"descriptionHtml,omitempty"`
	Systems         []string          `json:"systems"`
	Requirements    string            `json:"requirements"`
	Licence         string            `json:"licence"`
	Homepage        string            `json:"homepage"`
	Icon            *ImageView        `json:"icon"`
	Screenshots     []ImageView       `json:"screenshots"`
	Hidden          bool              `json:"hidden"`
	Order           int               `json:"order"`
	Example         bool              `json:"example"`
	Downloads       int64             `json:"downloads"`
	Releases        []ReleaseView     `json:"releases"`
	CreatedAt       time.Time         `json:"createdAt"`
	UpdatedAt       time.Time         `json:"updatedAt"`
}

// LatestView is the newest release in a list item.
type LatestView struct {
	Version string    `json:"version"`
	Date    time.Time `json:"date"`
}

// SummaryView is an entry as the list shows it (no description, no
// files).
type SummaryView struct {
	Section      string            `json:"section"`
	Slug         string            `json:"slug"`
	Name         string            `json:"name"`
	Summary      string            `json:"summary"`
	Summaries    map[string]string `json:"summaries"`
	Systems      []string          `json:"systems"`
	Icon         *ImageView        `json:"icon"`
	Hidden       bool              `json:"hidden"`
	Order        int               `json:"order"`
	Example      bool              `json:"example"`
	Downloads    int64             `json:"downloads"`
	Latest       *LatestView       `json:"latest"`
	UpdatedAt    time.Time         `json:"updatedAt"`
	ReleaseCount int               `json:"releaseCount"`
}

func base(slug string) string { return "/api/downloads/" + url.PathEscape(slug) }

func (e *Entry) image(m *Media) *ImageView {
	if m == nil {
		return nil
	}
	return &ImageView{ID: m.ID, Name: m.Name, Size: m.Size, URL: base(e.Slug) + "/images/" + m.ID}
}

// View is the entry as shown.
func (e *Entry) View() EntryView {
	v := EntryView{Section: e.Section, Slug: e.Slug, Name: e.Name, Summary: e.Summary, Description: e.Description,
		Translations: e.Translations, Systems: e.Systems, Requirements: e.Requirements, Licence: e.Licence,
		Homepage: e.Homepage, Icon: e.image(e.Icon), Screenshots: []ImageView{}, Hidden: e.Hidden, Order: e.Order,
		Example: e.Example, Downloads: e.TotalDownloads(), Releases: []ReleaseView{}, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	if v.Translations == nil {
		v.Translations = map[string]Translation{}
	}
	for i := range e.Screenshots {
		v.Screenshots = append(v.Screenshots, *e.image(&e.Screenshots[i]))
	}
	for _, r := range e.Releases {
		rv := ReleaseView{Version: r.Version, Notes: r.Notes, Date: r.Date, Files: []FileView{}}
		for _, f := range r.Files {
			rv.Files = append(rv.Files, FileView{ID: f.ID, Name: f.Name, System: f.System, Arch: f.Arch, Size: f.Size,
				SHA256: f.SHA256, URL: base(e.Slug) + "/files/" + f.ID, Downloads: f.Downloads})
		}
		v.Releases = append(v.Releases, rv)
	}
	return v
}

// SummaryOf is the entry as a list item.
func (e *Entry) SummaryOf() SummaryView {
	v := SummaryView{Section: e.Section, Slug: e.Slug, Name: e.Name, Summary: e.Summary, Summaries: map[string]string{},
		Systems: e.Systems, Icon: e.image(e.Icon), Hidden: e.Hidden, Order: e.Order, Example: e.Example,
		Downloads: e.TotalDownloads(), UpdatedAt: e.UpdatedAt, ReleaseCount: len(e.Releases)}
	for lang, t := range e.Translations {
		if t.Summary != "" {
			v.Summaries[lang] = t.Summary
		}
	}
	if r := e.Latest(); r != nil {
		v.Latest = &LatestView{Version: r.Version, Date: r.Date}
	}
	return v
}
